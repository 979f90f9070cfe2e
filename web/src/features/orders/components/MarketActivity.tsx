import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import ReceiptLongRoundedIcon from '@mui/icons-material/ReceiptLongRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { Order } from '@shared/schemas/orders';
import { Link as RouterLink } from 'react-router';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { orderPath } from '../../../lib/orders';
import ordersTexts from '../../../locales/en.orders.json';
import { useMarketOrders } from '../hooks/useOrders';
import { ItemThumb, LoadMore, OrderStatusChip, viewerZone } from './OrderParts';

addTranslations({ orders: ordersTexts });

export function RowsSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <Box role="status" aria-label={label} sx={{ display: 'grid', gap: 1.5 }}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} variant="rounded" height={76} />
      ))}
    </Box>
  );
}

/**
 * The market activity: the caller's orders, bought and sold, newest first (retrievemarket, a
 * page at a time with Load more): date, item, bought or sold, copies, amount, status, and a link
 * to the order.
 */
export function MarketActivity({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useMarketOrders(userId);
  const orders = query.data?.pages.flatMap((page) => page.items) ?? [];

  if (query.isPending) return <RowsSkeleton label={t('orders.activity.loading')} />;
  if (query.isError && !query.isFetchNextPageError) {
    return (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('market.errors.transactions')}
        body={errorText(query.error)}
        action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
      />
    );
  }
  if (orders.length === 0) {
    return (
      <StatusMessage
        icon={<ReceiptLongRoundedIcon />}
        title={t('orders.activity.empty')}
        body={t('orders.activity.emptyBody')}
        action={
          <Button component={RouterLink} to="/market" variant="contained">
            {t('orders.activity.toMarket')}
          </Button>
        }
      />
    );
  }
  return (
    <>
      <Box
        component="ul"
        aria-label={t('orders.activity.list')}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
      >
        {orders.map((order) => (
          <MarketRow key={order.id} order={order} />
        ))}
      </Box>
      <LoadMore
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        isFetchNextPageError={query.isFetchNextPageError}
        fetchNextPage={query.fetchNextPage}
      />
    </>
  );
}

function MarketRow({ order }: { order: Order }) {
  const { t } = useTranslation();
  const copies = order.lineItems.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-label={order.item.title}
      sx={{
        p: { xs: 1.5, sm: 2 },
        display: 'grid',
        gap: { xs: 1, sm: 2 },
        alignItems: 'center',
        gridTemplateColumns: { xs: 'auto 1fr', sm: 'auto minmax(0, 2fr) 1fr 1fr auto' },
      }}
    >
      <ItemThumb src={order.item.image.thumb} />
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {order.item.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(order.created_at, { timeZone: viewerZone() })}
        </Typography>
      </Box>
      <Box
        sx={{
          display: 'flex',
          gap: 1,
          alignItems: 'center',
          flexWrap: 'wrap',
          gridColumn: { xs: '1 / -1', sm: 'auto' },
        }}
      >
        <Chip
          size="small"
          variant="outlined"
          color={order.role === 'buyer' ? 'primary' : 'secondary'}
          label={t(`orders.role.${order.role}`)}
        />
        <Typography variant="body2">{t('orders.activity.copies', { count: copies })}</Typography>
      </Box>
      <Box
        sx={{
          display: 'flex',
          gap: 1,
          alignItems: 'center',
          flexWrap: 'wrap',
          gridColumn: { xs: '1 / -1', sm: 'auto' },
        }}
      >
        <Typography sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {priceText(order.total, order.currency)}
        </Typography>
        <OrderStatusChip status={order.status} />
      </Box>
      <Button
        component={RouterLink}
        to={orderPath(order.id)}
        size="small"
        variant="outlined"
        aria-label={t('orders.activity.viewOf', { title: order.item.title })}
        sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
      >
        {t('orders.activity.view')}
      </Button>
    </Paper>
  );
}
