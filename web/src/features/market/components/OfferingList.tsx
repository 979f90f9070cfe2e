import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import Box from '@mui/material/Box';
import type { OfferingCard as Offering, OfferingPage } from '@shared/schemas/offerings';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import {
  OFFERING_GRID_SX,
  OfferingCard,
  OfferingGridSkeleton,
} from '../../../components/OfferingCard';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useProgressiveCount } from '../../../lib/useProgressiveCount';
import marketTexts from '../../../locales/en.market.json';
import { LoadMore } from './LoadMore';

addTranslations({ market: marketTexts });

export type OfferingsQuery = UseInfiniteQueryResult<InfiniteData<OfferingPage, unknown>, Error>;

/** Cards mounted per commit (a page of 50 mounts a dozen at a time). */
const MOUNT_STEP = 12;

/**
 * Asks for the next page when the end of the list comes near (infinite scroll); the Load more
 * button stays for keyboards, and where the browser has no IntersectionObserver.
 */
function useLoadOnApproach(query: OfferingsQuery) {
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  useEffect(() => {
    if (!node || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    if (typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [node, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  return setNode;
}

interface OfferingListProps {
  query: OfferingsQuery;
  /** The list's accessible name. */
  label: string;
  /** What shows when there is no offering. */
  empty: ReactNode;
  renderFavorite?: (offering: Offering) => ReactNode;
}

/**
 * A paged list of offering cards with every state a list has: loading (skeleton cards), error
 * (the market's error text, the reason, a retry), empty, and the next pages (infinite scroll and
 * a Load more button; an error loading more keeps the cards and offers a retry).
 */
export function OfferingList({ query: live, label, empty, renderFavorite }: OfferingListProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const sentinel = useLoadOnApproach(live);
  // The cards render in a transition once the answer is in: a slow phone stays responsive.
  const query = useDeferredValue(live);
  const offerings = query.data?.pages.flatMap((page) => page.items) ?? [];
  const shown = useProgressiveCount(offerings.length, MOUNT_STEP);

  if (query.isPending) return <OfferingGridSkeleton label={t('market.grid.loading')} />;
  if (query.isError && !query.isFetchNextPageError) {
    return (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('market.errors.offerings')}
        body={errorText(query.error)}
        action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
      />
    );
  }
  if (offerings.length === 0) return <>{empty}</>;
  return (
    <>
      <Box component="ul" aria-label={label} sx={OFFERING_GRID_SX}>
        {offerings.slice(0, shown).map((offering) => (
          <Box component="li" key={offering.id} sx={{ minWidth: 0 }}>
            <OfferingCard offering={offering} renderFavorite={renderFavorite} />
          </Box>
        ))}
      </Box>
      <Box ref={sentinel} aria-hidden sx={{ height: 1 }} />
      <LoadMore query={query} failedText={t('market.grid.retryMore')} />
    </>
  );
}
