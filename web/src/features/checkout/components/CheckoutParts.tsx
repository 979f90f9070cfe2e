import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Order } from '@shared/schemas/orders';
import type { OfferingDetail } from '@shared/schemas/offerings';
import type { SavedCard } from '@shared/schemas/payments';
import { Fact, FactsGrid } from '../../../components/FactsGrid';
import { addTranslations, useTranslation, type TFunction } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { formatCountdown, splitLines } from '../../../lib/orders';
import checkoutTexts from '../../../locales/en.checkout.json';
import ordersTexts from '../../../locales/en.orders.json';

addTranslations({ checkout: checkoutTexts, orders: ordersTexts });

/** "Visa •••• 4242": the brand's name (Stripe's brand code where we have none) and last four. */
export function cardName(
  card: Pick<SavedCard, 'brand' | 'last4'>,
  t: TFunction,
  exists: (key: string) => boolean,
): string {
  const key = `checkout.payment.brands.${card.brand}`;
  const brand = exists(key)
    ? t(key as 'checkout.payment.brands.visa')
    : card.brand
      ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1)
      : t('checkout.payment.brands.unknown');
  return t('checkout.payment.cardName', { brand, last4: card.last4 });
}

/** The item being bought: image, title, seller, price per copy (and deposit), copies left. */
export function ItemHeader({
  offering,
  showLeft,
}: {
  offering: OfferingDetail;
  /** Shows the copies left (before booking: once booked, they include the buyer's own). */
  showLeft: boolean;
}) {
  const { t } = useTranslation();
  const price = (amount: number) => priceText(amount, offering.currency);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('checkout.item.label')}
      sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', minWidth: 0 }}
    >
      <Box
        component="img"
        src={offering.item.image.thumb}
        alt=""
        sx={{
          width: { xs: 64, sm: 88 },
          height: { xs: 64, sm: 88 },
          objectFit: 'cover',
          borderRadius: 2,
          flexShrink: 0,
          bgcolor: 'action.hover',
        }}
      />
      <Box sx={{ minWidth: 0, display: 'grid', gap: 0.25 }}>
        <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {offering.item.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('checkout.item.seller', { nick: offering.seller.nick })}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography sx={{ fontWeight: 600 }}>
            {t('checkout.item.price', {
              // An auction is bought at its buy-now price.
              price: price(
                offering.type === 'auction' && offering.buy_price !== null
                  ? offering.buy_price
                  : offering.price,
              ),
            })}
          </Typography>
          {offering.payment_mode === 'deposit' && offering.deposit !== null ? (
            <Chip
              size="small"
              variant="outlined"
              label={t('checkout.item.deposit', { amount: price(offering.deposit) })}
            />
          ) : null}
          {showLeft ? (
            <Typography variant="body2" color="text.secondary">
              {t('checkout.item.left', { count: offering.copies_left })}
            </Typography>
          ) : null}
        </Box>
      </Box>
    </Paper>
  );
}

/** The booking's time left, mm:ss. */
export function BookingCountdown({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  const time = formatCountdown(seconds);
  const low = seconds <= 60;
  return (
    <Alert
      severity={low ? 'warning' : 'info'}
      icon={<TimerOutlinedIcon />}
      // A timer is not announced on every tick (an alert would be).
      role="timer"
      aria-label={t('checkout.countdown.label')}
    >
      <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {t('checkout.countdown.text', { time })}
      </Box>
    </Alert>
  );
}

/** The order's amounts: price per copy, copies, total, and a deposit order's two payments. */
export function OrderAmounts({ order }: { order: Order }) {
  const { t } = useTranslation();
  const price = (amount: number) => priceText(amount, order.currency);
  const line = order.lineItems[0];
  const copies = line?.quantity ?? 0;
  const deposit = order.payment_mode === 'deposit';
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <FactsGrid label={t('checkout.review.title')}>
        <Fact term={t('checkout.review.unitPrice')}>{price(line?.amount ?? 0)}</Fact>
        <Fact term={t('checkout.review.copies')}>{copies}</Fact>
        <Fact term={t('checkout.review.total')}>
          <Box component="strong">{price(order.total)}</Box>
          <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: 14 }}>
            {t('checkout.review.times', { price: price(line?.amount ?? 0), copies })}
          </Box>
        </Fact>
        {deposit ? (
          <>
            <Fact term={t('checkout.review.dueNow')}>{price(order.due_now)}</Fact>
            <Fact term={t('checkout.review.balanceLater')}>{price(order.balance_due)}</Fact>
          </>
        ) : null}
      </FactsGrid>
      {deposit ? (
        <Typography variant="body2" color="text.secondary">
          {t('checkout.review.depositNote')}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * Where the payment goes (Order.split, shared/split.ts): the platform's 2 % fee, the creator's
 * royalty on a resale, the beneficiary's share, and what the seller receives.
 */
export function SplitList({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { split } = order;
  const price = (amount: number) => priceText(amount, order.currency);
  const rows = splitLines(split).map((line) => ({ ...line, label: t(line.label, line.values) }));
  return (
    <Box component="section" aria-labelledby="checkout-split-title">
      <Typography id="checkout-split-title" variant="subtitle1" component="h3" sx={{ mb: 0.5 }}>
        {t('orders.split.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('orders.split.note')}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 0.5 }}>
        {rows.map((row) => (
          <Box
            key={row.key}
            sx={{
              display: 'flex',
              justifyContent: 'space-between',
              gap: 2,
              '& dd': { m: 0 },
            }}
          >
            <Typography component="dt" variant="body2" sx={{ fontWeight: row.strong ? 600 : 400 }}>
              {row.label}
            </Typography>
            <Typography
              component="dd"
              variant="body2"
              sx={{ fontWeight: row.strong ? 600 : 400, fontVariantNumeric: 'tabular-nums' }}
            >
              {price(row.amount)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
