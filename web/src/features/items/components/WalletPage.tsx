import AddRoundedIcon from '@mui/icons-material/AddRounded';
import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import Inventory2RoundedIcon from '@mui/icons-material/Inventory2Rounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { TOKEN_TYPES, type ItemPage, type MyProductsBody } from '@shared/schemas/items';
import { PRODUCT_TYPES, type ProductType } from '@shared/switches';
import { useState } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink, Navigate } from 'react-router';
import { SellerBalanceCard } from '../../../components/SellerBalanceCard';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { ORDER_PATHS } from '../../../lib/orders';
import { useOwnProfile } from '../../../lib/ownProfile';
import { PATHS } from '../../../lib/paths';
import { fetchMyProducts, itemKeys, switchVisibility } from '../api/items';
import { ItemGrid, ItemGridSkeleton, LoadMore } from './ItemGrid';
import itemsTexts from '../../../locales/en.items.json';
import ordersTexts from '../../../locales/en.orders.json';

addTranslations({ items: itemsTexts, orders: ordersTexts });

type TokenType = (typeof TOKEN_TYPES)[number];

/** /account/wallet/mymints: the user's creations; unverified users go to mytokens. */
export function MyMintsRoute() {
  const { user } = useAuth();
  const profile = useOwnProfile(user?.id ?? null);
  if (!user || profile.isPending) return null;
  if (profile.data && !profile.data.is_verified) return <Navigate to={PATHS.myTokens} replace />;
  return <WalletPage userId={user.id} onlyMint />;
}

/** /account/wallet/mytokens: the items the user holds. */
export function MyTokensRoute() {
  const { user } = useAuth();
  if (!user) return null;
  return <WalletPage userId={user.id} onlyMint={false} />;
}

/**
 * The wallet's tabs (spec 001 §2: /account/wallet with mytokens, mymints, mytokenshistory), as
 * links so each tab has its address. My creations is for verified users only, as its page is;
 * History (the copies bought and sold) is the orders feature's page.
 */
function WalletTabs({ userId, current }: { userId: string; current: string }) {
  const { t } = useTranslation();
  const profile = useOwnProfile(userId);
  const showMints = profile.data?.is_verified !== false;
  const tabs = [
    { to: PATHS.myTokens, label: t('items.wallet.mytokens') },
    ...(showMints ? [{ to: PATHS.myMints, label: t('items.wallet.mymints') }] : []),
    { to: ORDER_PATHS.history, label: t('orders.history.tab') },
  ];
  return (
    <Tabs
      value={current}
      aria-label={t('items.wallet.sections')}
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

export function WalletPage({ userId, onlyMint }: { userId: string; onlyMint: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const heading = onlyMint ? t('items.wallet.mymints') : t('items.wallet.mytokens');
  usePageMeta({ title: t('meta.titleTemplate', { page: heading, app: t('app.name') }) });
  const [tokenType, setTokenType] = useState<TokenType>(onlyMint ? 'creations' : 'items');
  const [productType, setProductType] = useState<ProductType | ''>('');
  const filters: MyProductsBody = {
    onlyMint,
    tokenType,
    ...(productType ? { productType } : {}),
  };
  const key = itemKeys.mine(userId, filters);
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      fetchMyProducts(userId, { ...filters, last: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const [busyId, setBusyId] = useState<string | null>(null);
  const visibility = useMutation({
    mutationFn: ({ itemId, visible }: { itemId: string; visible: boolean }) =>
      switchVisibility(userId, itemId, visible),
    onMutate: ({ itemId }) => setBusyId(itemId),
    onSettled: () => setBusyId(null),
    onSuccess: (result) => {
      queryClient.setQueryData<InfiniteData<ItemPage, string | null>>(key, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((item) =>
                  item.id === result.item_id ? { ...item, visible: result.visible } : item,
                ),
              })),
            }
          : data,
      );
    },
  });
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  // A seller's Stripe balance heads the wallet (spec 001 §2 balance card).
  const seller = useOwnProfile(userId).data?.onboarding_status === 'complete';

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 2,
          flexWrap: 'wrap',
          mb: 2,
        }}
      >
        <Typography variant="h4" component="h1">
          {t('items.wallet.title')}
        </Typography>
        <Button
          component={RouterLink}
          to={PATHS.mintForm}
          variant="contained"
          startIcon={<AddRoundedIcon />}
        >
          {t('items.wallet.create')}
        </Button>
      </Box>
      {seller ? (
        <Box sx={{ mb: 2 }}>
          <SellerBalanceCard userId={userId} />
        </Box>
      ) : null}
      <WalletTabs userId={userId} current={onlyMint ? PATHS.myMints : PATHS.myTokens} />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 3 }}>
        <Tabs
          value={tokenType}
          onChange={(_event, value: TokenType) => setTokenType(value)}
          aria-label={t('items.wallet.tabs')}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ flex: '1 1 auto' }}
        >
          {TOKEN_TYPES.map((value) => (
            <Tab key={value} value={value} label={t(`items.wallet.tab.${value}`)} />
          ))}
        </Tabs>
        <TextField
          select
          size="small"
          label={t('items.wallet.productType')}
          value={productType}
          onChange={(event) => setProductType(event.target.value as ProductType | '')}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">{t('items.wallet.allTypes')}</MenuItem>
          {PRODUCT_TYPES.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`items.types.${value}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {visibility.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(visibility.error)}
        </Alert>
      ) : null}
      {query.isPending ? (
        <ItemGridSkeleton label={t('items.wallet.loading')} />
      ) : query.isError ? (
        <StatusMessage
          role="alert"
          tone="error"
          icon={<CloudOffRoundedIcon />}
          title={t('items.wallet.error')}
          body={errorText(query.error)}
          action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
        />
      ) : items.length === 0 ? (
        <StatusMessage
          icon={<Inventory2RoundedIcon />}
          title={t('items.wallet.empty')}
          body={t('items.wallet.emptyBody')}
          action={
            <Button component={RouterLink} to={PATHS.mintForm} variant="contained">
              {t('items.wallet.create')}
            </Button>
          }
        />
      ) : (
        <>
          <ItemGrid
            items={items}
            label={heading}
            busyId={busyId}
            onVisibility={(item, visible) => visibility.mutate({ itemId: item.id, visible })}
          />
          <LoadMore query={query} />
        </>
      )}
    </Container>
  );
}
