import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  CANCEL_REASON_MAX,
  CARRIER_MAX,
  TRACKING_MAX,
  type Order,
  type UpdateOrderBody,
} from '@shared/schemas/orders';
import { useId, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { toasts } from '../../../lib/toast';
import ordersTexts from '../../../locales/en.orders.json';
import { useOrderAction } from '../hooks/useOrders';

addTranslations({ orders: ordersTexts });

export type OrderDialogKind = 'ship' | 'cancel' | 'ready' | 'confirm_receipt';

/**
 * The dialog of a party's action on its order (seller: ship with carrier and tracking number,
 * cancel with an optional reason, charge a deposit order's balance; buyer: confirm receipt). The
 * refreshed order replaces the page's; a success toast says what happened.
 */
export function OrderActionDialog({
  kind,
  order,
  userId,
  onClose,
}: {
  kind: OrderDialogKind;
  order: Order;
  userId: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const bodyId = useId();
  const action = useOrderAction(userId, order.id);
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const busy = action.isPending;
  const price = (amount: number) => priceText(amount, order.currency);

  const texts = {
    ship: {
      title: t('orders.actions.shipTitle'),
      body: t('orders.actions.shipBody'),
      confirm: t('orders.actions.shipConfirm'),
      done: t('orders.actions.shipped'),
    },
    cancel: {
      title: t('orders.actions.cancelTitle'),
      body: t('orders.actions.cancelBody', { amount: price(order.paid) }),
      confirm: t('orders.actions.cancelConfirm'),
      done: t('orders.actions.cancelled'),
    },
    ready: {
      title: t('orders.actions.readyTitle'),
      body: t('orders.actions.readyBody', { amount: price(order.balance_due) }),
      confirm: t('orders.actions.readyConfirm'),
      done: t('orders.actions.charged'),
    },
    confirm_receipt: {
      title: t('orders.actions.confirmTitle'),
      body: t('orders.actions.confirmBody'),
      confirm: t('orders.actions.confirmConfirm'),
      done: t('orders.actions.received'),
    },
  }[kind];

  const required = t('forms.validation.required');
  const message = (code: string | undefined) =>
    code === undefined
      ? undefined
      : i18n.exists(code)
        ? t(code as 'unexpected')
        : errorText(new ApiError({ code, status: 400 }));
  const carrierError =
    (touched && carrier.trim() === '' ? required : undefined) ?? message(fieldErrors.carrier);
  const trackingError =
    (touched && tracking.trim() === '' ? required : undefined) ?? message(fieldErrors.tracking);

  const bodyOf = (): UpdateOrderBody | null => {
    switch (kind) {
      case 'ship':
        if (carrier.trim() === '' || tracking.trim() === '') return null;
        return { action: 'ship', carrier: carrier.trim(), tracking: tracking.trim() };
      case 'cancel':
        return { action: 'cancel', reason: reason.trim() === '' ? null : reason.trim() };
      case 'ready':
        return { action: 'ready' };
      case 'confirm_receipt':
        return { action: 'confirm_receipt' };
    }
  };

  const submit = () => {
    setTouched(true);
    setFieldErrors({});
    const body = bodyOf();
    if (body === null) return;
    action.mutate(body, {
      onSuccess: () => {
        toasts.show({ severity: 'success', message: texts.done });
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setFieldErrors(error.fields);
      },
    });
  };
  const fieldProblem =
    action.error instanceof ApiError && action.error.fields && kind === 'ship'
      ? Object.keys(action.error.fields).some((key) => key === 'carrier' || key === 'tracking')
      : false;

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullScreen={fullScreen}
      fullWidth
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      slotProps={{ paper: { sx: { maxWidth: fullScreen ? undefined : 480 } } }}
    >
      <Box
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
      >
        <DialogTitle id={titleId}>{texts.title}</DialogTitle>
        <DialogContent>
          <DialogContentText id={bodyId} sx={{ mb: kind === 'ship' || kind === 'cancel' ? 2 : 0 }}>
            {texts.body}
          </DialogContentText>
          {kind === 'ship' ? (
            <Box sx={{ display: 'grid', gap: 1 }}>
              <TextField
                label={t('orders.actions.carrier')}
                value={carrier}
                onChange={(event) => setCarrier(event.target.value)}
                required
                autoFocus
                fullWidth
                disabled={busy}
                error={carrierError !== undefined}
                helperText={carrierError ?? ' '}
                slotProps={{ htmlInput: { maxLength: CARRIER_MAX } }}
              />
              <TextField
                label={t('orders.actions.tracking')}
                value={tracking}
                onChange={(event) => setTracking(event.target.value)}
                required
                fullWidth
                disabled={busy}
                error={trackingError !== undefined}
                helperText={trackingError ?? ' '}
                slotProps={{ htmlInput: { maxLength: TRACKING_MAX } }}
              />
            </Box>
          ) : null}
          {kind === 'cancel' ? (
            <TextField
              label={t('orders.actions.reason')}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              multiline
              minRows={2}
              fullWidth
              disabled={busy}
              slotProps={{ htmlInput: { maxLength: CANCEL_REASON_MAX } }}
            />
          ) : null}
          {action.isError && !fieldProblem ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {errorText(action.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy} color="inherit">
            {kind === 'cancel' ? t('orders.actions.keep') : t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={kind === 'cancel' ? 'error' : 'primary'}
            loading={busy}
          >
            {texts.confirm}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
