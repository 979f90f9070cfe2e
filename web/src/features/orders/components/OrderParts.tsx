import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Order, OrderStatus } from '@shared/schemas/orders';
import { useId, type ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { splitLines } from '../../../lib/orders';
import ordersTexts from '../../../locales/en.orders.json';

addTranslations({ orders: ordersTexts });

/** The viewer's time zone, for dates as the spec shows them (DD/MM/YYYY HH:mm). */
export const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const STATUS_COLORS: Record<OrderStatus, ChipProps['color']> = {
  accepted: 'warning',
  payment_intent_created: 'warning',
  payment_intent_success: 'info',
  checkout_complete: 'info',
  paid: 'primary',
  fulfilled: 'success',
  cancelled: 'default',
  payment_expired: 'error',
  order_expired: 'default',
};

/** An order's status (spec 000 §4), in words and colour. */
export function OrderStatusChip({
  status,
  size = 'small',
  labelled = false,
}: {
  status: OrderStatus;
  size?: ChipProps['size'];
  /** Named "Status: …" (where the chip stands alone, e.g. by the page's heading). */
  labelled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Chip
      aria-label={
        labelled
          ? t('orders.page.statusLabel', { status: t(`orders.status.${status}`) })
          : undefined
      }
      size={size}
      color={STATUS_COLORS[status]}
      variant={STATUS_COLORS[status] === 'default' ? 'outlined' : 'filled'}
      label={t(`orders.status.${status}`)}
    />
  );
}

/** A titled part of the order page. */
export function OrderSection({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 1.5, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, justifyContent: 'space-between' }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/**
 * Where the payment goes (Order.split, shared/split.ts): the platform's 2 % fee, the creator's
 * royalty on a resale, the beneficiary's share, and what the seller receives.
 */
export function SplitRows({ order }: { order: Order }) {
  const { t } = useTranslation();
  const { split } = order;
  const price = (amount: number) => priceText(amount, order.currency);
  const rows = splitLines(split).map((line) => ({ ...line, label: t(line.label, line.values) }));
  return (
    <Box
      component="dl"
      aria-label={t('orders.split.title')}
      sx={{ m: 0, display: 'grid', gap: 0.5 }}
    >
      {rows.map((row) => (
        <Box
          key={row.key}
          sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, '& dd': { m: 0 } }}
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
  );
}

/** The item's thumbnail (decorative: its title is next to it). */
export function ItemThumb({ src, size = 56 }: { src: string; size?: number }) {
  return (
    <Box
      component="img"
      src={src}
      alt=""
      loading="lazy"
      sx={{
        width: size,
        height: size,
        objectFit: 'cover',
        borderRadius: 1.5,
        flexShrink: 0,
        bgcolor: 'action.hover',
      }}
    />
  );
}

/** The end of a paged list: Load more, or a retry when loading more failed. */
export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  isFetchNextPageError,
  fetchNextPage,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}) {
  const { t } = useTranslation();
  if (isFetchNextPageError) {
    return (
      <Alert
        severity="error"
        sx={{ mt: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void fetchNextPage()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('orders.activity.retryMore')}
      </Alert>
    );
  }
  if (!hasNextPage) return null;
  return (
    <Box sx={{ textAlign: 'center', mt: 2 }}>
      <Button
        variant="outlined"
        onClick={() => void fetchNextPage()}
        disabled={isFetchingNextPage}
        startIcon={isFetchingNextPage ? <CircularProgress size={16} aria-hidden /> : undefined}
      >
        {isFetchingNextPage ? t('orders.activity.loadingMore') : t('orders.activity.loadMore')}
      </Button>
    </Box>
  );
}
