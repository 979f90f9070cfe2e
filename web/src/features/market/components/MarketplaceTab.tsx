import SearchOffRoundedIcon from '@mui/icons-material/SearchOffRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { OfferingCard as Offering } from '@shared/schemas/offerings';
import { useId, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { OfferingCard } from '../../../components/OfferingCard';
import { StatusMessage } from '../../../components/StatusMessage';
import { useAuth } from '../../../lib/auth';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import {
  hasFilters,
  marketBody,
  NO_FILTERS,
  readMarketFilters,
  writeMarketFilters,
  type MarketFilters,
} from '../filters';
import { MARKET_PAGE_SIZE, STRIP_SIZE, useOfferingsList } from '../hooks/useMarket';
import { FavoriteButton } from './FavoriteButton';
import { MarketFiltersBar } from './MarketFiltersBar';
import { OfferingList } from './OfferingList';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

const heart = (offering: Offering) => <FavoriteButton offering={offering} />;

/**
 * The offerings the caller is invited to (private offerings): a strip above the market, for a
 * signed-in user with invitations only (nothing shows while it loads, fails or is empty).
 */
function InvitedStrip() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const titleId = useId();
  const body = useMemo(() => ({ invited: true, limit: STRIP_SIZE }), []);
  const query = useOfferingsList(body, user !== null);
  const offerings = query.data?.pages[0]?.items ?? [];
  if (user === null || offerings.length === 0) return null;
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ mb: 4 }}>
      <Typography id={titleId} variant="h6" component="h2">
        {t('market.invited.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('market.invited.subtitle')}
      </Typography>
      <Box
        component="ul"
        aria-labelledby={titleId}
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          pb: 1,
          display: 'grid',
          gridAutoFlow: 'column',
          gridAutoColumns: { xs: '44%', sm: '200px' },
          gap: { xs: 1.5, sm: 2 },
          overflowX: 'auto',
          scrollSnapType: 'x mandatory',
          '& > li': { scrollSnapAlign: 'start', minWidth: 0 },
        }}
      >
        {offerings.map((offering) => (
          <li key={offering.id}>
            <OfferingCard offering={offering} renderFavorite={heart} />
          </li>
        ))}
      </Box>
    </Box>
  );
}

/**
 * The Market tab (`/market/preview/marketplace`, the market preview guests see too): the
 * invitations strip, the filters (kept in the address, so a reload or a shared link shows the same
 * market) and the offerings, newest first, 50 a page.
 */
export function MarketplaceTab() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const filters = useMemo(() => readMarketFilters(new URLSearchParams(search)), [search]);
  const body = useMemo(() => marketBody(filters, MARKET_PAGE_SIZE), [filters]);
  const query = useOfferingsList(body);
  const setFilters = (next: MarketFilters) =>
    setParams(writeMarketFilters(next, new URLSearchParams(search)), { replace: true });
  const filtered = hasFilters(filters);
  return (
    <>
      <InvitedStrip />
      <MarketFiltersBar filters={filters} onChange={setFilters} />
      <OfferingList
        query={query}
        label={t('market.marketplace.offerings')}
        renderFavorite={heart}
        empty={
          filtered ? (
            <StatusMessage
              icon={<SearchOffRoundedIcon />}
              title={t('market.marketplace.empty')}
              body={t('market.marketplace.emptyBody')}
              action={
                <Button variant="contained" onClick={() => setFilters(NO_FILTERS)}>
                  {t('market.filters.clear')}
                </Button>
              }
            />
          ) : (
            <StatusMessage
              icon={<StorefrontRoundedIcon />}
              title={t('market.marketplace.emptyAll')}
              body={t('market.marketplace.emptyAllBody')}
            />
          )
        }
      />
    </>
  );
}
