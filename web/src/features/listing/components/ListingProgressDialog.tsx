import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { listingPercent, type ListingProgress } from '@shared/schemas/offerings';
import { addTranslations, useTranslation, type TFunction } from '../../../lib/i18n';
import listingTexts from '../../../locales/en.listing.json';
import type { ListingRun } from '../hooks/useListingRun';

addTranslations({ listing: listingTexts });

const NAMED_STEPS = ['loading', 'preparing', 'confirm', 'listing', 'publishing', 'done'] as const;

/** The step's name; any other status reads as loading (spec 000 §4). */
function stepText(t: TFunction, progress: ListingProgress | null): string {
  if (progress === null) return t('listing.progress.steps.loading');
  if (progress.step === 'preparing' && progress.total > 0) {
    return t('listing.progress.steps.preparingCount', {
      done: progress.done,
      total: progress.total,
    });
  }
  const step = (NAMED_STEPS as readonly string[]).includes(progress.step)
    ? (progress.step as (typeof NAMED_STEPS)[number])
    : 'loading';
  return t(`listing.progress.steps.${step}`);
}

/**
 * The listing's progress (spec 000 §4): the percentage of `listingPercent` and the step's name,
 * while the new collection is made and the listing runs; a failure with its text (and Try again
 * when the same submission may be sent again).
 */
export function ListingProgressDialog({
  run,
  onRetry,
  onClose,
}: {
  run: ListingRun;
  onRetry: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (run.phase !== 'collection' && run.phase !== 'running' && run.phase !== 'error') return null;
  const progress = run.phase === 'running' ? run.progress : null;
  const percent =
    run.phase === 'running' && progress
      ? listingPercent(progress.step, progress.done, progress.total)
      : 0;
  const step =
    run.phase === 'collection' ? t(`listing.progress.steps.${run.step}`) : stepText(t, progress);
  return (
    <Dialog
      open
      aria-labelledby="listing-progress-title"
      aria-describedby="listing-progress-status"
      onClose={run.phase === 'error' ? onClose : undefined}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="listing-progress-title">{t('listing.progress.title')}</DialogTitle>
      <DialogContent>
        {run.phase === 'error' ? (
          <Alert severity="error" role="alert">
            {run.message}
          </Alert>
        ) : (
          <Box id="listing-progress-status" role="status" aria-live="polite">
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mb: 1 }}>
              <Typography>{step}</Typography>
              {run.phase === 'running' ? (
                <Typography color="text.secondary">
                  {t('listing.progress.percent', { percent })}
                </Typography>
              ) : null}
            </Box>
            <LinearProgress
              aria-label={t('listing.progress.running')}
              variant={run.phase === 'running' ? 'determinate' : 'indeterminate'}
              value={percent}
            />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('listing.progress.keepOpen')}
            </Typography>
          </Box>
        )}
      </DialogContent>
      {run.phase === 'error' ? (
        <DialogActions>
          <Button onClick={onClose}>{t('common.close')}</Button>
          {run.retry ? (
            <Button variant="contained" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          ) : null}
        </DialogActions>
      ) : null}
    </Dialog>
  );
}

/** The confirm-listing modal (spec 000 §2, §4): list the copies still available, or cancel. */
export function ConfirmListingDialog({
  run,
  onConfirm,
  onCancel,
}: {
  run: ListingRun;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  if (run.phase !== 'confirm') return null;
  const { done, total } = run.progress;
  return (
    <Dialog
      open
      aria-labelledby="confirm-listing-title"
      aria-describedby="confirm-listing-body"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="confirm-listing-title">{t('listing.confirm.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
        <Box id="confirm-listing-body">
          <Typography sx={{ fontWeight: 600 }}>
            {t('listing.confirm.body', { done, total })}
          </Typography>
          <Typography color="text.secondary">{t('listing.confirm.question')}</Typography>
        </Box>
        {run.problem ? (
          <Alert severity="error" role="alert">
            {run.problem}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button color="inherit" onClick={onCancel} disabled={run.busy}>
          {t('listing.confirm.cancel')}
        </Button>
        <Button variant="contained" onClick={onConfirm} disabled={run.busy}>
          {t('listing.confirm.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
