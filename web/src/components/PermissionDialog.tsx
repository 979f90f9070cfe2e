import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import VerifiedUserRoundedIcon from '@mui/icons-material/VerifiedUserRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId, useState } from 'react';
import { addTranslations, useTranslation } from '../lib/i18n';
import { useLocation } from 'react-router';
import { useAuth } from '../lib/auth';
import { permissionPrompt, type PermissionPrompt } from '../lib/permission';
import permissionTexts from '../locales/en.permission.json';

addTranslations({ permission: permissionTexts });

/**
 * The modals the permission guard opens instead of an action (spec 001 §6):
 * - verify: the account needs a verified e-mail and phone; logging in again runs both pins;
 * - onboard: seller onboarding is required. The minter-onboarding modal takes these over once it
 *   registers with `onboardingRegistry`; until then this only explains it, with no fake action.
 * PermissionPromptHost.tsx loads this on demand and shows it while a prompt is open.
 */
export function PermissionDialog({ prompt }: { prompt: PermissionPrompt }) {
  const { t } = useTranslation();
  const { user, logout, openLogin } = useAuth();
  const { pathname, search } = useLocation();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const signedOut = user === null;
  useEffect(() => {
    if (signedOut && !busy) permissionPrompt.close();
  }, [signedOut, busy]);
  const verify = prompt.kind === 'verify';
  const close = () => {
    if (!busy) permissionPrompt.close();
  };
  const loginAgain = async () => {
    const returnTo = `${pathname}${search}`;
    setBusy(true);
    try {
      await logout();
      openLogin(returnTo);
    } finally {
      setBusy(false);
      permissionPrompt.close();
    }
  };
  return (
    <Dialog
      open
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 500, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <Box component="span" aria-hidden sx={{ display: 'inline-flex', color: 'primary.main' }}>
          {verify ? <VerifiedUserRoundedIcon /> : <StorefrontRoundedIcon />}
        </Box>
        {verify ? t('permission.verify.title') : t('permission.onboard.title')}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {verify ? t('permission.verify.body') : t('permission.onboard.body')}
        </DialogContentText>
        {verify ? (
          <DialogContentText sx={{ mt: 1.5 }}>{t('permission.verify.how')}</DialogContentText>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={busy} color="inherit">
          {verify ? t('common.cancel') : t('common.close')}
        </Button>
        {verify ? (
          <Button variant="contained" loading={busy} onClick={() => void loginAgain()}>
            {t('permission.verify.loginAgain')}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}
