import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAuth } from '../../../lib/auth';

/** The logout confirmation (spec 001 §2): confirm signs out everywhere and goes home. */
export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { logout } = useAuth();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const confirm = async () => {
    setBusy(true);
    try {
      await logout();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      slotProps={{ paper: { sx: { maxWidth: 420, p: 1 } } }}
    >
      <DialogTitle id={titleId}>{t('logout.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>{t('logout.body')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy} color="inherit">
          {t('logout.cancel')}
        </Button>
        <Button
          onClick={() => void confirm()}
          disabled={busy}
          variant="contained"
          color="error"
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : null}
        >
          {t('logout.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
