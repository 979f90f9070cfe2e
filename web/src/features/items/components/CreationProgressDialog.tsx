import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import type { CreationProgress } from '@shared/schemas/items';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

export type CreationState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: CreationProgress | null }
  | { phase: 'error'; message: string }
  | { phase: 'done'; progress: CreationProgress };

const STEPS = ['checking', 'uploading-token', 'done'] as const;

function activeStep(state: CreationState): number {
  if (state.phase === 'done') return 3;
  if (state.phase === 'running' && state.progress?.status === 'uploading-token') return 1;
  return 0;
}

/** The creation's progress (spec 000 §4): checking → uploading-token x/N → done | error. */
export function CreationProgressDialog({
  state,
  onRetry,
  onClose,
}: {
  state: CreationState;
  onRetry: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (state.phase === 'idle') return null;
  const progress = state.phase === 'running' || state.phase === 'done' ? state.progress : null;
  const step = activeStep(state);
  return (
    <Dialog
      open
      aria-labelledby="creation-title"
      aria-describedby="creation-status"
      onClose={state.phase === 'error' ? onClose : undefined}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="creation-title">{t('items.progress.title')}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} orientation="vertical" sx={{ mb: 2 }}>
          {STEPS.map((key) => (
            <Step key={key}>
              <StepLabel>
                {key === 'uploading-token' && progress && progress.total > 0
                  ? t('items.progress.uploadingCount', {
                      written: progress.written,
                      total: progress.total,
                    })
                  : t(`items.progress.${key === 'uploading-token' ? 'uploading' : key}`)}
              </StepLabel>
            </Step>
          ))}
        </Stepper>
        <Box id="creation-status" role="status" aria-live="polite">
          {state.phase === 'running' ? (
            <>
              <LinearProgress
                aria-label={t('items.progress.running')}
                variant={progress && progress.total > 0 ? 'determinate' : 'indeterminate'}
                value={
                  progress && progress.total > 0 ? (100 * progress.written) / progress.total : 0
                }
              />
              <Box sx={{ mt: 1, typography: 'body2', color: 'text.secondary' }}>
                {t('items.progress.keepOpen')}
              </Box>
            </>
          ) : null}
          {state.phase === 'done' ? t('items.progress.done') : null}
        </Box>
        {state.phase === 'error' ? (
          <Alert severity="error" role="alert">
            {state.message}
          </Alert>
        ) : null}
      </DialogContent>
      {state.phase === 'error' ? (
        <DialogActions>
          <Button onClick={onClose}>{t('common.close')}</Button>
          <Button variant="contained" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </DialogActions>
      ) : null}
    </Dialog>
  );
}
