import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useRoutes } from 'react-router';
import { NotFoundPage } from '../../../components/ErrorPage';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useOwnProfile } from '../../../lib/ownProfile';
import { CollectionsTab, FavoritesTab, MyBidsTab, MyOfferingsTab } from './AccountTabs';
import { MarketplaceTab } from './MarketplaceTab';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

/** The market's tabs (spec 000 §2: /market/preview with these children), in the spec's order. */
export const MARKET_TABS = [
  'marketplace',
  'myofferings',
  'mybids',
  'favorites',
  'collections',
] as const;
export type MarketTab = (typeof MARKET_TABS)[number];

const MARKETPLACE = '/market/preview/marketplace';
const tabPath = (tab: MarketTab) => `/market/preview/${tab}`;
const tabId = (tab: MarketTab) => `market-tab-${tab}`;
const PANEL_ID = 'market-tab-panel';

/**
 * Whether the signed-in user may see My Offerings (spec 000 §6, 001 §2: the listing pages, My
 * Offerings among them, send users back to the market unless the identity check is manual or
 * their seller onboarding is complete). Unknown (null) while their profile loads.
 */
function useMyOfferingsAllowed(): boolean | null {
  const { user } = useAuth();
  const { identityProvider } = useSwitches();
  const profile = useOwnProfile(user?.id ?? null);
  if (user === null || identityProvider === 'manual') return true;
  if (!profile.data) return null;
  return profile.data.onboarding_status === 'complete';
}

/** My Offerings, for those who may see it (the others go to the market). */
function MyOfferingsRoute() {
  const allowed = useMyOfferingsAllowed();
  if (allowed === false) return <Navigate to={MARKETPLACE} replace />;
  return <MyOfferingsTab />;
}

function currentTab(pathname: string): MarketTab {
  const segment = pathname.replace(/\/+$/, '').split('/').pop();
  return MARKET_TABS.find((tab) => tab === segment) ?? 'marketplace';
}

/** The market's frame: the heading, the tabs (links: each tab has its address) and the tab. */
function MarketLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = currentTab(pathname);
  const myOfferings = useMyOfferingsAllowed();
  const tabs = MARKET_TABS.filter((tab) => tab !== 'myofferings' || myOfferings !== false);
  const app = t('app.name');
  const heading = t(`market.tabs.${current}`);
  usePageMeta({
    title: t('meta.titleTemplate', {
      page: current === 'marketplace' ? t('market.title') : heading,
      app,
    }),
    description: t('market.description', { app }),
  });
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 1 }}>
        {t('market.title')}
      </Typography>
      <Tabs
        value={tabs.includes(current) ? current : false}
        aria-label={t('market.tabs.label')}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
      >
        {tabs.map((tab) => (
          <Tab
            key={tab}
            value={tab}
            id={tabId(tab)}
            aria-controls={PANEL_ID}
            label={t(`market.tabs.${tab}`)}
            component={RouterLink}
            to={tabPath(tab)}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(current)}>
        <Outlet />
      </Box>
    </Container>
  );
}

const tabRoutes: { path: MarketTab; element: ReactNode }[] = [
  { path: 'marketplace', element: <MarketplaceTab /> },
  { path: 'myofferings', element: <MyOfferingsRoute /> },
  { path: 'mybids', element: <MyBidsTab /> },
  { path: 'favorites', element: <FavoritesTab /> },
  { path: 'collections', element: <CollectionsTab /> },
];

/**
 * `/market/preview/*`: the market's tabs as child routes (a direct load or reload of any tab's
 * address shows it). Guests see the market preview; the account tabs ask them to log in. Any
 * other child is the 404 page.
 */
export function MarketPage() {
  return useRoutes([
    { index: true, element: <Navigate to={MARKETPLACE} replace /> },
    { element: <MarketLayout />, children: tabRoutes },
    { path: '*', element: <NotFoundPage /> },
  ]);
}
