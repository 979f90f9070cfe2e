import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import CollectionsRoundedIcon from '@mui/icons-material/CollectionsRounded';
import FavoriteBorderRoundedIcon from '@mui/icons-material/FavoriteBorderRounded';
import SellRoundedIcon from '@mui/icons-material/SellRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { MY_OFFERING_FILTERS, type OfferingCard as Offering } from '@shared/schemas/offerings';
import type { Collection } from '@shared/schemas/items';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { OFFERING_GRID_SX } from '../../../components/OfferingCard';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import { MY_BID_FILTERS, readMyBidsStatus, readMyOfferingsStatus, withStatus } from '../filters';
import { useFavoritesList, useMyCollections, useMyOfferings } from '../hooks/useMarket';
import { FavoriteButton } from './FavoriteButton';
import { MyBidsList } from './MyBidsList';
import { StatusFilter } from './MarketFiltersBar';
import { OfferingList } from './OfferingList';
import { SignedIn } from './TabStates';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

/** The status filter's value in the address (`?status=`), as the tab reads and sets it. */
function useStatusParam<S extends string>(read: (params: URLSearchParams) => S) {
  const [params, setParams] = useSearchParams();
  const status = read(params);
  const setStatus = (next: S) => setParams(withStatus(params, next), { replace: true });
  return [status, setStatus] as const;
}

function MyOfferingsList({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useStatusParam(readMyOfferingsStatus);
  const query = useMyOfferings(userId, status);
  return (
    <>
      <StatusFilter statuses={MY_OFFERING_FILTERS} value={status} onChange={setStatus} />
      <OfferingList
        query={query}
        label={t('market.myofferings.offerings')}
        empty={
          status === 'any' ? (
            <StatusMessage
              icon={<SellRoundedIcon />}
              title={t('market.myofferings.empty')}
              body={t('market.myofferings.emptyBody')}
              action={
                <Button component={RouterLink} to={PATHS.myTokens} variant="contained">
                  {t('market.myofferings.toWallet')}
                </Button>
              }
            />
          ) : (
            <StatusMessage
              icon={<SellRoundedIcon />}
              title={t('market.myofferings.emptyFiltered')}
              body={t('market.myofferings.emptyFilteredBody')}
            />
          )
        }
      />
    </>
  );
}

/** My Offerings (`myofferings`): the caller's offerings by status (any, active, sold, closed). */
export function MyOfferingsTab() {
  return <SignedIn tab="myofferings">{(user) => <MyOfferingsList userId={user.id} />}</SignedIn>;
}

function MyBids({ userId }: { userId: string }) {
  const [status, setStatus] = useStatusParam(readMyBidsStatus);
  return (
    <>
      <StatusFilter statuses={MY_BID_FILTERS} value={status} onChange={setStatus} />
      <MyBidsList userId={userId} status={status} />
    </>
  );
}

/**
 * My Bids (`mybids`): the status filter (spec 000 §2: any, active, closed) and the auctions the
 * caller bid on (getmybettedofferings), each with their bid, its status and the auction's state.
 */
export function MyBidsTab() {
  return <SignedIn tab="mybids">{(user) => <MyBids userId={user.id} />}</SignedIn>;
}

const removableHeart = (offering: Offering) => <FavoriteButton offering={offering} favorite />;

function Favorites({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const query = useFavoritesList(userId);
  return (
    <OfferingList
      query={query}
      label={t('market.favorite.offerings')}
      renderFavorite={removableHeart}
      empty={
        <StatusMessage
          icon={<FavoriteBorderRoundedIcon />}
          title={t('market.favorite.empty')}
          body={t('market.favorite.emptyBody')}
          action={
            <Button component={RouterLink} to="/market/preview/marketplace" variant="contained">
              {t('market.favorite.browse')}
            </Button>
          }
        />
      }
    />
  );
}

/** Favorites (`favorites`): the caller's favourites, each with the heart that removes it. */
export function FavoritesTab() {
  return <SignedIn tab="favorites">{(user) => <Favorites userId={user.id} />}</SignedIn>;
}

function CollectionCard({ collection }: { collection: Collection }) {
  const { t } = useTranslation();
  return (
    <Card component="article" sx={{ position: 'relative', height: '100%' }}>
      <Box
        component="img"
        src={collection.image.thumb || collection.image.url}
        alt=""
        loading="lazy"
        sx={{ display: 'block', width: '100%', aspectRatio: '1', objectFit: 'cover' }}
      />
      <Box sx={{ p: 1.5 }}>
        <Typography component="h3" noWrap sx={{ fontWeight: 700 }} title={collection.title}>
          <Link
            component={RouterLink}
            to={`/market/collection/${encodeURIComponent(collection.id)}`}
            underline="none"
            color="inherit"
            sx={{
              '&::after': { content: '""', position: 'absolute', inset: 0 },
              '&:focus-visible': { outline: 'none' },
              '&:focus-visible::after': {
                outline: '3px solid rgba(79, 70, 229, 0.55)',
                outlineOffset: 2,
              },
            }}
          >
            {collection.title}
          </Link>
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {collection.symbol} · {t('market.collections.items', { count: collection.items_count })}
        </Typography>
      </Box>
    </Card>
  );
}

function Collections({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useMyCollections(userId);
  if (query.isPending) {
    return (
      <Box role="status" aria-label={t('market.collections.loading')} sx={OFFERING_GRID_SX}>
        {[0, 1, 2, 3].map((key) => (
          <Skeleton key={key} variant="rounded" sx={{ aspectRatio: '0.8', height: 'auto' }} />
        ))}
      </Box>
    );
  }
  if (query.isError) {
    return (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('market.collections.loadFailed')}
        body={errorText(query.error)}
        action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
      />
    );
  }
  if (query.data.items.length === 0) {
    return (
      <StatusMessage
        icon={<CollectionsRoundedIcon />}
        title={t('market.collections.empty')}
        body={t('market.collections.emptyBody')}
      />
    );
  }
  return (
    <Box component="ul" aria-label={t('market.collections.list')} sx={OFFERING_GRID_SX}>
      {query.data.items.map((collection) => (
        <Box component="li" key={collection.id} sx={{ minWidth: 0 }}>
          <CollectionCard collection={collection} />
        </Box>
      ))}
    </Box>
  );
}

/** Collections (`collections`): the caller's collections, each opening its collection page. */
export function CollectionsTab() {
  return <SignedIn tab="collections">{(user) => <Collections userId={user.id} />}</SignedIn>;
}
