import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import { useId } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useLoginFlow } from '../hooks/useLoginFlow';
import { LoginSteps } from './LoginSteps';
import loginTexts from '../../../locales/en.login.json';

addTranslations({ login: loginTexts });

/** The login modal's dialog: the login steps (and the Amplify calls behind them). */
export function LoginDialog({ returnTo, onClose }: { returnTo: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const flow = useLoginFlow({ returnTo });
  const { busy, step, error } = flow.state;
  const persistent = busy || (step === 3 && !error);
  const close = () => {
    if (!persistent) onClose();
  };
  return (
    <Dialog
      open
      onClose={close}
      fullWidth
      aria-labelledby={titleId}
      slotProps={{
        paper: { sx: { maxWidth: 500, m: { xs: 1.5, sm: 4 }, width: { xs: 'calc(100% - 24px)' } } },
      }}
    >
      <IconButton
        onClick={close}
        disabled={persistent}
        aria-label={t('common.close')}
        sx={{ position: 'absolute', top: 8, right: 8, color: 'text.secondary' }}
      >
        <CloseRoundedIcon />
      </IconButton>
      <DialogContent sx={{ px: { xs: 2.5, sm: 5 }, pt: { xs: 5, sm: 6 }, pb: { xs: 3, sm: 4.5 } }}>
        {/* The pin steps carry their own heading; the dialog is named by step 0's title. */}
        <span id={titleId} hidden>
          {t('login.title')}
        </span>
        <LoginSteps flow={flow} onSignup={onClose} />
      </DialogContent>
    </Dialog>
  );
}
