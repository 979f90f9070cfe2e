import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import HistoryRoundedIcon from '@mui/icons-material/HistoryRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { Order } from '@shared/schemas/orders';
import { Link as RouterLink } from 'react-router';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { HISTORY_STATUSES, ORDER_PATHS, orderPath } from '../../../lib/orders';
import { useOwnProfile } from '../../../lib/ownProfile';
import { PATHS } from '../../../lib/paths';
import ordersTexts from '../../../locales/en.orders.json';
import { useMarketOrders } from '../hooks/useOrders';
import { RowsSkeleton } from './MarketActivity';
import { ItemThumb, LoadMore, OrderStatusChip, viewerZone } from './OrderParts';

addTranslations({ orders: ordersTexts });

/** `/account/wallet/mytokenshistory` (spec 001 §2), behind RequireUser. */
export function TokensHistoryRoute() {
  const { user } = useAuth();
  if (!user) return null;
  return <TokensHistoryPage userId={user.id} />;
}

/** The wallet's tabs, as the wallet page shows them (My creations for verified users only). */
function WalletTabs({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const profile = useOwnProfile(userId);
  const showMints = profile.data?.is_verified !== false;
  const tabs = [
    { to: PATHS.myTokens, label: t('orders.history.mytokens') },
    ...(showMints ? [{ to: PATHS.myMints, label: t('orders.history.mymints') }] : []),
    { to: ORDER_PATHS.history, label: t('orders.history.tab') },
  ];
  return (
    <Tabs
      value={ORDER_PATHS.history}
      aria-label={t('orders.history.sections')}
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
    >
      {tabs.map((tab) => (
        <Tab key={tab.to} value={tab.to} label={tab.label} component={RouterLink} to={tab.to} />
      ))}
    </Tabs>
  );
}

/**
 * The copies the user bought and sold (the market orders that are paid, fulfilled or
 * cancelled): the item, the serials, the date, the price, bought or sold, and the order.
 */
export function TokensHistoryPage({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('orders.history.tab'), app: t('app.name') }),
    noIndex: true,
  });
  const query = useMarketOrders(userId);
  const orders = (query.data?.pages.flatMap((page) => page.items) ?? []).filter((order) =>
    HISTORY_STATUSES.includes(order.status),
  );

  let content;
  if (query.isPending) {
    content = <RowsSkeleton label={t('orders.history.loading')} />;
  } else if (query.isError && !query.isFetchNextPageError) {
    content = (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('market.errors.transactions')}
        body={errorText(query.error)}
        action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
      />
    );
  } else {
    content = (
      <>
        {orders.length === 0 ? (
          <StatusMessage
            icon={<HistoryRoundedIcon />}
            title={t('orders.history.empty')}
            body={t('orders.history.emptyBody')}
            action={
              query.hasNextPage ? undefined : (
                <Button component={RouterLink} to="/market" variant="contained">
                  {t('orders.activity.toMarket')}
                </Button>
              )
            }
          />
        ) : (
          <Box
            component="ul"
            aria-label={t('orders.history.list')}
            sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
          >
            {orders.map((order) => (
              <HistoryRow key={order.id} order={order} />
            ))}
          </Box>
        )}
        <LoadMore
          hasNextPage={query.hasNextPage}
          isFetchingNextPage={query.isFetchingNextPage}
          isFetchNextPageError={query.isFetchNextPageError}
          fetchNextPage={query.fetchNextPage}
        />
      </>
    );
  }

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
        {t('orders.history.title')}
      </Typography>
      <WalletTabs userId={userId} />
      {content}
    </Container>
  );
}

function HistoryRow({ order }: { order: Order }) {
  const { t } = useTranslation();
  const serials = order.lineItems.flatMap((line) => line.nftuniqueids);
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
        gridTemplateColumns: { xs: 'auto 1fr', sm: 'auto minmax(0, 2fr) 1fr auto' },
      }}
    >
      <ItemThumb src={order.item.image.thumb} />
      <Box sx={{ minWidth: 0 }}>
        <Link
          component={RouterLink}
          to={`/market/product/${encodeURIComponent(order.item.id)}`}
          sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
        >
          {order.item.title}
        </Link>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {serials.length > 0
            ? t('orders.history.serials', { serials: serials.join(', ') })
            : t('orders.history.noSerials')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(order.updated_at, { timeZone: viewerZone() })}
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
