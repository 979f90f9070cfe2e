import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { useAuth } from '../../../lib/auth';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { ORDER_PATHS } from '../../../lib/orders';
import ordersTexts from '../../../locales/en.orders.json';
import { MarketActivity } from './MarketActivity';
import { WalletActivityTab } from './WalletActivity';

addTranslations({ orders: ordersTexts });

const SLUGS = ['market', 'wallet'] as const;
type Slug = (typeof SLUGS)[number];

const PATH_OF: Record<Slug, string> = {
  market: ORDER_PATHS.marketActivity,
  wallet: ORDER_PATHS.walletActivity,
};

const isSlug = (value: string | undefined): value is Slug => SLUGS.includes(value as Slug);

/**
 * `/account/activity/:slug?` (spec 001 §2): the Market tab (orders bought and sold) and the
 * Wallet tab (the seller's balance and the wallet activity). No slug, or one it does not know,
 * goes to the market activity.
 */
export function ActivityRoute() {
  const { slug } = useParams();
  const { user } = useAuth();
  if (!isSlug(slug)) return <Navigate to={ORDER_PATHS.marketActivity} replace />;
  if (!user) return null;
  return <ActivityPage slug={slug} userId={user.id} />;
}

const tabId = (slug: Slug) => `activity-tab-${slug}`;
const PANEL_ID = 'activity-tab-panel';

export function ActivityPage({ slug, userId }: { slug: Slug; userId: string }) {
  const { t } = useTranslation();
  const heading = t(`orders.activity.${slug}`);
  usePageMeta({
    title: t('meta.titleTemplate', {
      page: `${t('orders.activity.title')} · ${heading}`,
      app: t('app.name'),
    }),
    noIndex: true,
  });
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 1 }}>
        {t('orders.activity.title')}
      </Typography>
      <Tabs
        value={slug}
        aria-label={t('orders.activity.tabs')}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
      >
        {SLUGS.map((each) => (
          <Tab
            key={each}
            value={each}
            id={tabId(each)}
            aria-controls={PANEL_ID}
            label={t(`orders.activity.${each}`)}
            component={RouterLink}
            to={PATH_OF[each]}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(slug)}>
        {slug === 'market' ? (
          <MarketActivity userId={userId} />
        ) : (
          <WalletActivityTab userId={userId} />
        )}
      </Box>
    </Container>
  );
}
