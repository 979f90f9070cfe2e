import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { OfferingDetail } from '@shared/schemas/offerings';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { delistOffering } from '../../../lib/offerings';
import { toasts } from '../../../lib/toast';
import { useOfferingCache } from '../hooks/useOfferings';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/**
 * The delist modal (spec 000 §2, §4: only while on sale, or an auction without bids): its copies
 * go back to the seller. The answer (status delisting) replaces the offering on the page; the
 * live `offering.updated` brings the end. A refusal shows its code's text and reads the offering
 * again (it changed under the seller: a bid, an end).
 */
export function DelistDialog({
  offering,
  open,
  onClose,
  onRefused,
  onDelisted,
}: {
  offering: OfferingDetail;
  open: boolean;
  onClose: () => void;
  onRefused: () => void;
  /** The copies are back with their owner already (the answer says delisted). */
  onDelisted?: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user } = useAuth();
  const { store } = useOfferingCache();
  const titleId = useId();
  const bodyId = useId();
  const mutation = useMutation({
    mutationFn: () => delistOffering(user?.id ?? '', offering.id),
    onSuccess: (next) => {
      store(next);
      if (next.status === 'delisted') onDelisted?.();
      toasts.show({ severity: 'success', message: t('offering.delist.started') });
      onClose();
    },
    onError: () => onRefused(),
  });
  const close = () => {
    if (mutation.isPending) return;
    mutation.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={titleId}>{t('offering.delist.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {t('offering.delist.body', { count: offering.copies_left })}
        </DialogContentText>
        {mutation.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(mutation.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={mutation.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          color="error"
          variant="contained"
          onClick={() => mutation.mutate()}
          loading={mutation.isPending}
        >
          {t('offering.delist.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
