import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from '../lib/i18n';
import { useLeaveGuard } from '../lib/useLeaveGuard';

/**
 * The process-in-progress alert (spec 000 §2): render it with `active` while a long operation
 * runs; leaving the page asks for confirmation.
 */
export function LeaveGuardDialog({ active }: { active: boolean }) {
  const { t } = useTranslation();
  const guard = useLeaveGuard(active);
  return (
    <Dialog
      open={guard.blocked}
      onClose={guard.stay}
      aria-labelledby="leave-guard-title"
      aria-describedby="leave-guard-body"
      maxWidth="xs"
    >
      <DialogTitle id="leave-guard-title">{t('leaveGuard.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="leave-guard-body">{t('leaveGuard.body')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={guard.leave} color="inherit">
          {t('leaveGuard.leave')}
        </Button>
        <Button onClick={guard.stay} variant="contained" autoFocus>
          {t('leaveGuard.stay')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
