import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import CancelOutlinedIcon from '@mui/icons-material/CancelOutlined';
import CreditCardRoundedIcon from '@mui/icons-material/CreditCardRounded';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import LocalShippingOutlinedIcon from '@mui/icons-material/LocalShippingOutlined';
import PaymentsOutlinedIcon from '@mui/icons-material/PaymentsOutlined';
import SearchOffRoundedIcon from '@mui/icons-material/SearchOffRounded';
import TaskAltRoundedIcon from '@mui/icons-material/TaskAltRounded';
import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { Order } from '@shared/schemas/orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { Fact, FactsGrid } from '../../../components/FactsGrid';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { countryName } from '../../../lib/countries';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import {
  checkoutPath,
  CONFIRMING_STATUSES,
  createCheckoutSession,
  formatCountdown,
  isBooked,
  ORDER_PATHS,
  orderKeys,
  paymentNavigation,
  payWithSavedCard,
  useSecondsLeft,
} from '../../../lib/orders';
import ordersTexts from '../../../locales/en.orders.json';
import { isMissing, useCheckoutSession, useOrder } from '../hooks/useOrders';
import { OrderActionDialog, type OrderDialogKind } from './OrderActionDialog';
import { OrderDisputeSection } from './OrderDispute';
import { ItemThumb, OrderSection, OrderStatusChip, SplitRows, viewerZone } from './OrderParts';

addTranslations({ orders: ordersTexts });

/** `/account/orders/:orderId` (behind RequireUser). */
export function OrderRoute() {
  const { orderId = '' } = useParams();
  const { user } = useAuth();
  if (!user) return null;
  return <OrderPage key={orderId} orderId={orderId} userId={user.id} />;
}

function OrderFrame({
  children,
  back = true,
  heading = false,
}: {
  children: ReactNode;
  back?: boolean;
  /** The page's own h1 (error states; a loaded order has its heading). */
  heading?: boolean;
}) {
  const { t } = useTranslation();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('orders.page.title'), app: t('app.name') }),
    noIndex: true,
  });
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      {back ? (
        <Button
          component={RouterLink}
          to={ORDER_PATHS.marketActivity}
          startIcon={<ArrowBackRoundedIcon />}
          color="inherit"
          size="small"
          sx={{ mb: 1 }}
        >
          {t('orders.page.activity')}
        </Button>
      ) : null}
      {heading ? (
        <Typography variant="h4" component="h1" sx={{ fontWeight: 800, mb: 2 }}>
          {t('orders.page.title')}
        </Typography>
      ) : null}
      {children}
    </Container>
  );
}

function OrderSkeleton() {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t('orders.page.loading')} sx={{ display: 'grid', gap: 2 }}>
      <Skeleton width="40%" height={48} />
      <Skeleton variant="rounded" height={96} />
      <Skeleton variant="rounded" height={160} />
      <Skeleton variant="rounded" height={160} />
    </Box>
  );
}

/**
 * One order as its buyer or seller sees it: status and timeline, the item and its copies, the
 * amounts and their split, delivery and shipment, payments with receipts, transfers, the booking
 * while it runs, and what the viewer may do now. Back from Stripe (`?session_id=`) it says the
 * payment is being confirmed until the order moves on.
 */
export function OrderPage({ orderId, userId }: { orderId: string; userId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useOrder(orderId);
  if (query.isPending) {
    return (
      <OrderFrame>
        <OrderSkeleton />
      </OrderFrame>
    );
  }
  if (query.isError) {
    return (
      <OrderFrame back={!isMissing(query.error)} heading>
        {isMissing(query.error) ? (
          <StatusMessage
            role="alert"
            tone="error"
            icon={<SearchOffRoundedIcon />}
            title={t('orders.page.notFoundTitle')}
            body={t('orders.page.notFoundBody')}
            action={
              <Button component={RouterLink} to={ORDER_PATHS.marketActivity} variant="contained">
                {t('orders.page.activity')}
              </Button>
            }
          />
        ) : (
          <StatusMessage
            role="alert"
            tone="error"
            icon={<ErrorOutlineRoundedIcon />}
            title={t('orders.page.loadFailed')}
            body={errorText(query.error)}
            action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
          />
        )}
      </OrderFrame>
    );
  }
  return (
    <OrderFrame>
      <OrderView order={query.data} userId={userId} />
    </OrderFrame>
  );
}

function OrderView({ order, userId }: { order: Order; userId: string }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const session = useCheckoutSession(sessionId);
  const [dialog, setDialog] = useState<OrderDialogKind | null>(null);
  const booked = isBooked(order.status);
  const seconds = useSecondsLeft(booked ? order.booking_expires_at : null);
  const zone = viewerZone();
  const price = (amount: number) => priceText(amount, order.currency);
  const line = order.lineItems[0];
  const serials = order.lineItems.flatMap((each) => each.nftuniqueids);
  const buyer = order.role === 'buyer';
  const other = buyer ? order.seller : order.buyer;
  const sessionAbandoned =
    session.data !== undefined &&
    session.data.payment_status === 'unpaid' &&
    session.data.status !== 'complete';
  const confirming =
    sessionId !== null && CONFIRMING_STATUSES.includes(order.status) && !sessionAbandoned;
  const can = (action: Order['actions'][number]) => order.actions.includes(action);
  const codeText = (code: string) => errorText(new ApiError({ code, status: 402 }));
  // A reason the app gave (dispute_lost) in words; the seller's own words as they wrote them.
  const cancelReasonText = (reason: string) => {
    const key = `orders.page.cancelReasons.${reason}`;
    return i18n.exists(key)
      ? t(key as 'orders.page.cancelReasons.dispute_lost')
      : t('orders.page.cancelReason', { reason });
  };

  const actions: { kind: OrderDialogKind; label: string; icon: ReactNode; danger?: boolean }[] = [];
  if (can('ship')) {
    actions.push({
      kind: 'ship',
      label: t('orders.actions.ship'),
      icon: <LocalShippingOutlinedIcon />,
    });
  }
  if (can('ready')) {
    actions.push({
      kind: 'ready',
      label: t('orders.actions.ready'),
      icon: <PaymentsOutlinedIcon />,
    });
  }
  if (can('confirm_receipt')) {
    actions.push({
      kind: 'confirm_receipt',
      label: t('orders.actions.confirmReceipt'),
      icon: <TaskAltRoundedIcon />,
    });
  }
  if (can('cancel')) {
    actions.push({
      kind: 'cancel',
      label: t('orders.actions.cancel'),
      icon: <CancelOutlinedIcon />,
      danger: true,
    });
  }

  return (
    <Box sx={{ display: 'grid', gap: 2.5 }}>
      <Box sx={{ display: 'grid', gap: 0.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
          <Typography variant="h4" component="h1">
            {t('orders.page.title')}
          </Typography>
          <OrderStatusChip status={order.status} size="medium" labelled />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {t('orders.page.number', { id: order.id })} ·{' '}
          {t('orders.page.created', {
            date: formatDateTime(order.created_at, { timeZone: zone }),
          })}
        </Typography>
      </Box>

      {confirming ? (
        <Alert severity="info" role="status" icon={<CircularProgress size={20} aria-hidden />}>
          <AlertTitle>{t('orders.page.confirming')}</AlertTitle>
          {t('orders.page.confirmingBody')}
        </Alert>
      ) : null}
      {sessionAbandoned && booked ? (
        <Alert severity="warning">{t('orders.page.notCompleted')}</Alert>
      ) : null}

      {booked && buyer && !confirming ? (
        <Alert
          severity={seconds !== null && seconds <= 60 ? 'warning' : 'info'}
          icon={<TimerOutlinedIcon />}
          role="timer"
          aria-label={t('orders.page.bookedLabel')}
          action={
            can('pay') && seconds !== 0 ? (
              <Button
                component={RouterLink}
                to={checkoutPath(order.offering_id, { id: order.id, step: 3 })}
                variant="contained"
                size="small"
                startIcon={<CreditCardRoundedIcon />}
              >
                {t('orders.page.pay')}
              </Button>
            ) : undefined
          }
        >
          {seconds === 0
            ? t('checkout.errors.order_expired')
            : t('orders.page.booked', { time: formatCountdown(seconds ?? 0) })}
        </Alert>
      ) : null}
      {booked && order.payment_error ? (
        <Alert severity="error">
          {t('orders.page.paymentError', { reason: codeText(order.payment_error) })}
        </Alert>
      ) : null}
      {buyer && order.status === 'checkout_complete' && can('pay') ? (
        <BalanceDue
          order={order}
          reason={codeText(order.payment_error ?? 'checkout.errors.paying')}
        />
      ) : null}
      {order.status === 'cancelled' && order.cancel_reason ? (
        <Alert severity="info">{cancelReasonText(order.cancel_reason)}</Alert>
      ) : null}
      {order.dispute ? <OrderDisputeSection dispute={order.dispute} role={order.role} /> : null}

      {actions.length > 0 ? (
        <OrderSection title={t('orders.actions.title')}>
          <Box
            sx={{
              display: 'flex',
              gap: 1,
              flexWrap: 'wrap',
              '& > *': { flex: { xs: '1 1 100%', sm: '0 0 auto' } },
            }}
          >
            {actions.map((action) => (
              <Button
                key={action.kind}
                variant={action.danger ? 'outlined' : 'contained'}
                color={action.danger ? 'error' : 'primary'}
                startIcon={action.icon}
                onClick={() => setDialog(action.kind)}
              >
                {action.label}
              </Button>
            ))}
          </Box>
        </OrderSection>
      ) : null}

      <OrderSection title={t('orders.page.item')}>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', minWidth: 0 }}>
          <ItemThumb src={order.item.image.thumb} size={72} />
          <Box sx={{ minWidth: 0 }}>
            <Link
              component={RouterLink}
              to={`/market/product/${encodeURIComponent(order.item.id)}`}
              variant="h6"
              sx={{ overflowWrap: 'anywhere', display: 'block' }}
            >
              {order.item.title}
            </Link>
            <Typography variant="body2" color="text.secondary">
              {buyer
                ? t('orders.page.boughtFrom', { nick: other.nick })
                : t('orders.page.soldTo', { nick: other.nick })}
            </Typography>
          </Box>
        </Box>
      </OrderSection>

      <OrderSection title={t('orders.amounts.title')}>
        <FactsGrid>
          <Fact term={t('orders.amounts.unitPrice')}>{price(line?.amount ?? 0)}</Fact>
          <Fact term={t('orders.amounts.copies')}>{line?.quantity ?? 0}</Fact>
          <Fact term={t('orders.amounts.total')}>{price(order.total)}</Fact>
          <Fact term={t('orders.amounts.paid')}>{price(order.paid)}</Fact>
          {order.refunded > 0 ? (
            <Fact term={t('orders.amounts.refunded')}>{price(order.refunded)}</Fact>
          ) : null}
          {order.payment_mode === 'deposit' ? (
            <>
              <Fact term={t('orders.amounts.deposit')}>{price(order.due_now)}</Fact>
              <Fact term={t('orders.amounts.balance')}>{price(order.balance_due)}</Fact>
            </>
          ) : null}
        </FactsGrid>
        <Typography variant="body2" color="text.secondary">
          {order.payment_mode === 'deposit'
            ? t('orders.amounts.depositMode')
            : t('orders.amounts.fullPrice')}
        </Typography>
        <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
          {t('orders.split.title')}
        </Typography>
        <SplitRows order={order} />
      </OrderSection>

      <OrderSection title={t('orders.copies.title')}>
        {serials.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('orders.copies.none')}
          </Typography>
        ) : (
          <Box
            component="ul"
            aria-label={t('orders.copies.serials')}
            sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', gap: 0.75, flexWrap: 'wrap' }}
          >
            {serials.map((serial) => (
              <li key={serial}>
                <Chip
                  size="small"
                  variant="outlined"
                  label={serial}
                  sx={{ fontFamily: 'monospace', maxWidth: '100%' }}
                />
              </li>
            ))}
          </Box>
        )}
      </OrderSection>

      <OrderSection title={t('orders.delivery.title')}>
        {order.delivery === 'delivery' && order.postaladdress ? (
          <Box>
            <Typography variant="body2" color="text.secondary">
              {t('orders.delivery.to')}
            </Typography>
            <Typography sx={{ fontWeight: 600 }}>{order.postaladdress.fullname}</Typography>
            <Typography sx={{ overflowWrap: 'anywhere' }}>
              {[order.postaladdress.line1, order.postaladdress.line2].filter(Boolean).join(', ')}
            </Typography>
            <Typography>
              {`${order.postaladdress.postalcode} ${order.postaladdress.city}, ${order.postaladdress.stateprovince}, ${countryName(order.postaladdress.country, i18n.language)}`}
            </Typography>
            {order.postaladdress.instructions ? (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
                {t('orders.delivery.instructions', {
                  instructions: order.postaladdress.instructions,
                })}
              </Typography>
            ) : null}
          </Box>
        ) : order.delivery === 'pickup' && order.pickup ? (
          <Box>
            <Typography variant="body2" color="text.secondary">
              {t('orders.delivery.pickup')}
            </Typography>
            <Typography>
              {`${order.pickup.line1}, ${order.pickup.postalcode} ${order.pickup.city}, ${countryName(order.pickup.country, i18n.language)}`}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
              {t('orders.delivery.instructions', { instructions: order.pickup.instructions })}
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('orders.delivery.none')}
          </Typography>
        )}
        {order.delivery === 'delivery' ? (
          <Box>
            <Typography variant="subtitle2" component="h3">
              {t('orders.delivery.shipment')}
            </Typography>
            {order.shipment ? (
              <FactsGrid>
                <Fact term={t('orders.delivery.carrier')}>{order.shipment.carrier}</Fact>
                <Fact term={t('orders.delivery.tracking')}>{order.shipment.tracking}</Fact>
                <Fact term={t('orders.delivery.shippedAt')}>
                  {formatDateTime(order.shipment.shipped_at, { timeZone: zone })}
                </Fact>
              </FactsGrid>
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t('orders.delivery.notShipped')}
              </Typography>
            )}
          </Box>
        ) : null}
        {order.fulfilment === 'received' ? (
          <Typography variant="body2">{t('orders.delivery.received')}</Typography>
        ) : order.release_at && (order.fulfilment === 'shipped' || order.delivery === 'pickup') ? (
          <Typography variant="body2" color="text.secondary">
            {t('orders.page.releaseAt', {
              date: formatDateTime(order.release_at, { timeZone: zone }),
            })}
          </Typography>
        ) : null}
      </OrderSection>

      <OrderSection title={t('orders.payments.title')}>
        {order.payments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('orders.payments.none')}
          </Typography>
        ) : (
          <Box
            component="ul"
            aria-label={t('orders.payments.title')}
            sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}
          >
            {order.payments.map((payment, index) => {
              const kind = t(`orders.payments.kind.${payment.kind}`);
              return (
                <Box
                  component="li"
                  key={payment.payment_intent_id ?? `${payment.kind}-${index}`}
                  sx={{
                    display: 'flex',
                    gap: 1,
                    alignItems: 'center',
                    flexWrap: 'wrap',
                    justifyContent: 'space-between',
                    py: 0.5,
                    borderBottom: 1,
                    borderColor: 'divider',
                  }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 600 }}>
                      {kind} · {priceText(payment.amount, payment.currency)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t(`orders.payments.state.${payment.status}`)}
                      {payment.paid_at
                        ? ` · ${formatDateTime(payment.paid_at, { timeZone: zone })}`
                        : ''}
                    </Typography>
                    {payment.extra ? (
                      <Typography variant="body2" color="text.secondary">
                        {t('orders.payments.extra')}
                      </Typography>
                    ) : null}
                  </Box>
                  {payment.receipt_url ? (
                    <Link
                      href={payment.receipt_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t('orders.payments.receiptOf', {
                        kind: kind.toLowerCase(),
                        amount: priceText(payment.amount, payment.currency),
                      })}
                    >
                      {t('orders.payments.receipt')}
                    </Link>
                  ) : null}
                </Box>
              );
            })}
          </Box>
        )}
      </OrderSection>

      {/* The payouts are the seller's business (and a paid party's): a buyer sees none. */}
      {order.role === 'seller' || order.transfers.length > 0 ? (
        <OrderSection title={t('orders.transfers.title')}>
          {order.transfers.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('orders.transfers.none')}
            </Typography>
          ) : (
            <Box
              component="ul"
              aria-label={t('orders.transfers.title')}
              sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}
            >
              {order.transfers.map((transfer, index) => (
                <Box
                  component="li"
                  key={transfer.transfer_id ?? `${transfer.party}-${index}`}
                  sx={{
                    display: 'flex',
                    gap: 1,
                    alignItems: 'center',
                    flexWrap: 'wrap',
                    justifyContent: 'space-between',
                  }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography>
                      {t(`orders.transfers.party.${transfer.party}`)} ·{' '}
                      <Link component={RouterLink} to={`/${transfer.user.nick}`}>
                        @{transfer.user.nick}
                      </Link>
                    </Typography>
                    {transfer.netted > 0 ? (
                      <Typography variant="body2" color="text.secondary">
                        {t('orders.transfers.netted', {
                          amount: priceText(transfer.netted, transfer.currency),
                        })}
                      </Typography>
                    ) : null}
                  </Box>
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                    <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {priceText(transfer.amount, transfer.currency)}
                    </Typography>
                    <Chip
                      size="small"
                      variant="outlined"
                      label={t(`orders.transfers.state.${transfer.state}`)}
                    />
                  </Box>
                </Box>
              ))}
            </Box>
          )}
        </OrderSection>
      ) : null}

      <OrderSection title={t('orders.timeline.title')}>
        <Box
          component="ol"
          aria-label={t('orders.timeline.title')}
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'grid',
            gap: 1,
            borderLeft: 2,
            borderColor: 'divider',
            pl: 2,
          }}
        >
          {order.timeline.map((event, index) => {
            const key = `orders.timeline.${event.label}`;
            const label = i18n.exists(key)
              ? t(key as 'orders.timeline.paid')
              : t(`orders.timeline.${event.status}`);
            return (
              <Box component="li" key={`${event.at}-${index}`}>
                <Typography sx={{ fontWeight: 600 }}>{label}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {formatDateTime(event.at, { timeZone: zone })}
                </Typography>
              </Box>
            );
          })}
        </Box>
      </OrderSection>

      {dialog ? (
        <OrderActionDialog
          kind={dialog}
          order={order}
          userId={userId}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Box>
  );
}

/**
 * A deposit order's balance the saved card did not pay (declined, removed, needs the bank): the
 * buyer pays it here, with a saved card or on Stripe's page.
 */
function BalanceDue({ order, reason }: { order: Order; reason: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: orderKeys.detail(order.id) });
  const saved = useMutation({
    mutationFn: () => payWithSavedCard(order.id),
    onSuccess: async (answer) => {
      if (answer.status === 'requires_action' && answer.next_action_url !== null) {
        paymentNavigation.assign(answer.next_action_url);
        return;
      }
      setProblem(
        answer.status === 'failed'
          ? errorText(new ApiError({ code: answer.error ?? 'checkout.errors.paying', status: 402 }))
          : null,
      );
      await refresh();
    },
    onError: (error) => setProblem(errorText(error)),
  });
  const page = useMutation({
    mutationFn: () => createCheckoutSession(order.id),
    onSuccess: (session) => paymentNavigation.assign(session.url),
    onError: (error) => setProblem(errorText(error)),
  });
  const busy = saved.isPending || page.isPending;
  const amount = priceText(order.balance_due, order.currency);
  return (
    <Alert severity="warning" role="alert">
      <AlertTitle>{t('orders.balance.title', { amount })}</AlertTitle>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('orders.balance.body', { reason })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" size="small" disabled={busy} onClick={() => saved.mutate()}>
          {t('orders.balance.savedCard', { amount })}
        </Button>
        <Button variant="outlined" size="small" disabled={busy} onClick={() => page.mutate()}>
          {t('orders.balance.newCard')}
        </Button>
      </Box>
      {problem !== null ? (
        <Typography variant="body2" color="error" sx={{ mt: 1 }}>
          {problem}
        </Typography>
      ) : null}
    </Alert>
  );
}
