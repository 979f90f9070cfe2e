import CheckCircleOutlineRoundedIcon from '@mui/icons-material/CheckCircleOutlineRounded';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import PersonOffOutlinedIcon from '@mui/icons-material/PersonOffOutlined';
import RemoveShoppingCartRoundedIcon from '@mui/icons-material/RemoveShoppingCartRounded';
import SearchOffRoundedIcon from '@mui/icons-material/SearchOffRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import type { OfferingDetail } from '@shared/schemas/offerings';
import type { Order } from '@shared/schemas/orders';
import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { offeringKeys } from '../../../lib/offerings';
import {
  checkoutPath,
  isBooked,
  orderPath,
  PAID_STATUSES,
  useSecondsLeft,
} from '../../../lib/orders';
import checkoutTexts from '../../../locales/en.checkout.json';
import { isMissing, useCheckoutOffering, useCheckoutOrder } from '../hooks/useCheckout';
import { BookingCountdown, ItemHeader } from './CheckoutParts';
import { CopiesStep } from './CopiesStep';
import { PaymentStep } from './PaymentStep';
import { ReviewStep } from './ReviewStep';

addTranslations({ checkout: checkoutTexts });

type StepNumber = 1 | 2 | 3;

const itemPath = (offering: OfferingDetail) =>
  `/market/product/${encodeURIComponent(offering.item.id)}?offering=${encodeURIComponent(offering.id)}`;

/**
 * Whether the offering can be bought now: a validated fixed-price sale running with copies left,
 * or an auction's buy-now price (the server refuses it once the auction has a bid).
 */
function onSale(offering: OfferingDetail, now: number): boolean {
  return (
    (offering.type === 'fixed'
      ? offering.display_status === 'buy_now'
      : offering.buy_price !== null && offering.display_status === 'auction') &&
    offering.status === 'validated' &&
    offering.copies_left > 0 &&
    Date.parse(offering.start_at) <= now &&
    Date.parse(offering.end_at) > now
  );
}

/**
 * `/market/product/:id/checkout` (spec 000 §2), `:id` the offering: three steps, the step and
 * the booked order in the address (`?order=oR…&step=2`), so a reload or a link restores them from
 * the order. Without a step, a booked order opens on the payment (Stripe's cancel page comes
 * back here so).
 */
export function CheckoutRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  if (!user) return null;
  return <CheckoutPage key={id} offeringId={id} userId={user.id} />;
}

function CheckoutFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('checkout.title'), app: t('app.name') }),
    noIndex: true,
  });
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        {t('checkout.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 3 }}>{children}</Box>
    </Container>
  );
}

function CheckoutSkeleton() {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t('checkout.loading')} sx={{ display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Skeleton variant="rounded" width={88} height={88} />
        <Box sx={{ flex: 1 }}>
          <Skeleton width="60%" />
          <Skeleton width="30%" />
        </Box>
      </Box>
      <Skeleton variant="rounded" height={40} />
      <Skeleton variant="rounded" height={200} />
    </Box>
  );
}

function CheckoutSteps({ step }: { step: StepNumber }) {
  const { t } = useTranslation();
  const labels = [
    t('checkout.steps.copies'),
    t('checkout.steps.review'),
    t('checkout.steps.payment'),
  ];
  return (
    <Box component="nav" aria-label={t('checkout.steps.label')}>
      <Stepper activeStep={step - 1} alternativeLabel>
        {labels.map((label, index) => (
          <Step key={label} aria-current={index === step - 1 ? 'step' : undefined}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
    </Box>
  );
}

export function CheckoutPage({ offeringId, userId }: { offeringId: string; userId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const orderId = params.get('order');
  const stepParam = params.get('step');
  const offering = useCheckoutOffering(offeringId, userId);
  const order = useCheckoutOrder(orderId);
  const seconds = useSecondsLeft(
    order.data && isBooked(order.data.status) ? order.data.booking_expires_at : null,
  );

  const bookAgain = () => {
    void queryClient.invalidateQueries({ queryKey: offeringKeys.detail(offeringId, userId) });
    void navigate(checkoutPath(offeringId), { replace: true });
  };

  if (offering.isPending || (orderId !== null && order.isPending)) {
    return (
      <CheckoutFrame>
        <CheckoutSkeleton />
      </CheckoutFrame>
    );
  }
  if (offering.isError) {
    return (
      <CheckoutFrame>
        {isMissing(offering.error) ? (
          <StatusMessage
            role="alert"
            tone="error"
            icon={<SearchOffRoundedIcon />}
            title={t('checkout.unavailable.notFoundTitle')}
            body={t('checkout.unavailable.notFoundBody')}
            action={
              <Button component={RouterLink} to="/market" variant="contained">
                {t('checkout.unavailable.market')}
              </Button>
            }
          />
        ) : (
          <StatusMessage
            role="alert"
            tone="error"
            icon={<ErrorOutlineRoundedIcon />}
            title={t('checkout.loadFailed')}
            body={errorText(offering.error)}
            action={
              <RetryButton onClick={() => void offering.refetch()} busy={offering.isFetching} />
            }
          />
        )}
      </CheckoutFrame>
    );
  }
  const detail = offering.data;
  const backToItem = (
    <Button component={RouterLink} to={itemPath(detail)} variant="contained">
      {t('checkout.unavailable.back')}
    </Button>
  );

  // A booked order: steps 2 and 3.
  if (orderId !== null) {
    if (order.isError && !isMissing(order.error)) {
      return (
        <CheckoutFrame>
          <StatusMessage
            role="alert"
            tone="error"
            icon={<ErrorOutlineRoundedIcon />}
            title={t('checkout.loadFailed')}
            body={errorText(order.error)}
            action={<RetryButton onClick={() => void order.refetch()} busy={order.isFetching} />}
          />
        </CheckoutFrame>
      );
    }
    const booked = order.data;
    if (!booked || booked.offering_id !== detail.id || booked.role !== 'buyer') {
      return (
        <CheckoutFrame>
          <StatusMessage
            role="alert"
            tone="error"
            icon={<SearchOffRoundedIcon />}
            title={t('checkout.unavailable.orderTitle')}
            body={t('checkout.unavailable.orderBody')}
            action={
              <Button component={RouterLink} to={checkoutPath(offeringId)} variant="contained">
                {t('checkout.unavailable.startAgain')}
              </Button>
            }
          />
        </CheckoutFrame>
      );
    }
    return (
      <BookedCheckout
        offering={detail}
        order={booked}
        userId={userId}
        step={stepParam === '2' ? 2 : 3}
        seconds={seconds}
        onStep={(next) =>
          void navigate(checkoutPath(offeringId, { id: booked.id, step: next }), {
            replace: next === 2,
          })
        }
        onBookAgain={bookAgain}
      />
    );
  }

  // Step 1: only an offering on sale to someone else.
  if (detail.is_seller) {
    return (
      <CheckoutFrame>
        <StatusMessage
          role="alert"
          tone="error"
          icon={<PersonOffOutlinedIcon />}
          title={t('checkout.unavailable.ownTitle')}
          body={t('checkout.unavailable.ownBody')}
          action={backToItem}
        />
      </CheckoutFrame>
    );
  }
  // The clock is read when the answer is in (the page renders again with each answer).
  if (!onSale(detail, offering.dataUpdatedAt)) {
    return (
      <CheckoutFrame>
        <StatusMessage
          role="alert"
          tone="error"
          icon={<RemoveShoppingCartRoundedIcon />}
          title={t('checkout.unavailable.notOnSaleTitle')}
          body={t('checkout.unavailable.notOnSaleBody')}
          action={backToItem}
        />
      </CheckoutFrame>
    );
  }
  return (
    <CheckoutFrame>
      <ItemHeader offering={detail} showLeft />
      <CheckoutSteps step={1} />
      <CopiesStep
        offering={detail}
        userId={userId}
        onBooked={(booked) =>
          void navigate(checkoutPath(offeringId, { id: booked.id, step: 2 }), { replace: true })
        }
      />
    </CheckoutFrame>
  );
}

/** Steps 2 and 3 of a booked order, with the booking's countdown; paid or expired orders say so. */
function BookedCheckout({
  offering,
  order,
  userId,
  step,
  seconds,
  onStep,
  onBookAgain,
}: {
  offering: OfferingDetail;
  order: Order;
  userId: string;
  step: 2 | 3;
  seconds: number | null;
  onStep: (step: 2 | 3) => void;
  onBookAgain: () => void;
}) {
  const { t } = useTranslation();
  if (PAID_STATUSES.includes(order.status)) {
    return (
      <CheckoutFrame>
        <ItemHeader offering={offering} showLeft={false} />
        <StatusMessage
          role="status"
          icon={<CheckCircleOutlineRoundedIcon />}
          title={t('checkout.paid.title')}
          body={t('checkout.paid.body')}
          action={
            <Button component={RouterLink} to={orderPath(order.id)} variant="contained">
              {t('checkout.paid.view')}
            </Button>
          }
        />
      </CheckoutFrame>
    );
  }
  const expired = !isBooked(order.status) || seconds === 0;
  return (
    <CheckoutFrame>
      <ItemHeader offering={offering} showLeft={false} />
      <CheckoutSteps step={step} />
      {expired ? (
        <Alert
          severity="error"
          role="alert"
          action={
            <Button color="inherit" size="small" onClick={onBookAgain}>
              {t('checkout.expired.again')}
            </Button>
          }
        >
          {t('checkout.errors.order_expired')}
        </Alert>
      ) : seconds !== null ? (
        <BookingCountdown seconds={seconds} />
      ) : null}
      {step === 2 ? (
        <ReviewStep order={order} disabled={expired} onContinue={() => onStep(3)} />
      ) : (
        <PaymentStep order={order} userId={userId} disabled={expired} onBack={() => onStep(2)} />
      )}
    </CheckoutFrame>
  );
}
