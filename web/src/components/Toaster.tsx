import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../lib/toast';

/** Shows the toast queue one at a time (10 s each unless the toast says otherwise). */
export function Toaster() {
  const { t } = useTranslation();
  const queue = useSyncExternalStore(toasts.subscribe, toasts.getQueue, toasts.getQueue);
  const current = queue[0];
  if (!current) return null;
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
