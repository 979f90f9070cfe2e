import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from '../lib/i18n';
import { toasts, type Toast } from '../lib/toast';

/** The toast on screen (Toaster.tsx, which loads this on demand, picks it from the queue). */
export function ToastSnackbar({ current }: { current: Toast }) {
  const { t } = useTranslation();
  const close = () => toasts.dismiss(current.id);
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={current.duration}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') close();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      sx={{ bottom: { xs: 88, sm: 24 } }}
    >
      <Alert
        severity={current.severity}
        variant="filled"
        onClose={close}
        slotProps={{ closeButton: { title: t('common.close'), 'aria-label': t('common.close') } }}
        action={
          current.action ? (
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                current.action?.onClick();
                close();
              }}
            >
              {current.action.label}
            </Button>
          ) : undefined
        }
        sx={{ minWidth: 280, alignItems: 'center' }}
      >
        {current.message}
      </Alert>
    </Snackbar>
  );
}
