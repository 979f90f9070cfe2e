import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Address } from '@shared/schemas/addresses';
import { useId } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useErrorText } from '../../../lib/errors';
import { toasts } from '../../../lib/toast';
import { useDeleteAddress } from '../hooks/useAddresses';
import addressesTexts from '../../../locales/en.addresses.json';

addTranslations({ addresses: addressesTexts });

/** Asks before deleting an address; the server then picks the next default if needed. */
export function DeleteAddressDialog({
  userId,
  address,
  onClose,
}: {
  userId: string;
  address: Address;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const remove = useDeleteAddress(userId);
  const titleId = useId();
  const bodyId = useId();
  const busy = remove.isPending;
  const confirm = () =>
    remove.mutate(address, {
      onSuccess: () => {
        toasts.show({ severity: 'success', message: t('addresses.deleted') });
        onClose();
      },
      onError: (error) => toasts.show({ severity: 'error', message: errorText(error) }),
    });
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      slotProps={{ paper: { sx: { maxWidth: 440, m: 2 } } }}
    >
      <DialogTitle id={titleId}>{t('addresses.deleteTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {t('addresses.deleteBody', { fullname: address.fullname, line1: address.line1 })}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button onClick={confirm} loading={busy} variant="contained" color="error">
          {t('addresses.delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
