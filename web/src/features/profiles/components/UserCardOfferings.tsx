import ChevronLeftRoundedIcon from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRoundedIcon from '@mui/icons-material/ChevronRightRounded';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { PAGE_SIZE } from '@shared/constants/limits';
import type { GetOfferingsBody } from '@shared/schemas/offerings';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { OfferingCard, OfferingCardSkeleton } from '../../../components/OfferingCard';
import { useAuth } from '../../../lib/auth';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { getOfferings, offeringKeys } from '../../../lib/offerings';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

/** Offerings per carousel page (spec 001 §2). */
export const CAROUSEL_PAGE = 3;

const row = {
  listStyle: 'none',
  m: 0,
  p: 0,
  display: 'grid',
  gap: 1,
  gridTemplateColumns: `repeat(${CAROUSEL_PAGE}, minmax(0, 1fr))`,
} as const;

/**
 * The user card's carousel (spec 001 §2): the user's closed or no-bid offerings, three a page with
 * previous and next; a card opens the product page (which closes the user card). Read 10 at a time,
 * the next 10 when the pages run out. Nothing shows when the user has none, or they cannot be
 * read (the card is about the user; the offerings are extra).
 */
export function UserCardOfferings({ nick }: { nick: string }) {
  const { t } = useTranslation();
  const { user, status } = useAuth();
  const viewer = user?.id ?? null;
  const titleId = useId();
  const [page, setPage] = useState(0);
  const body = useMemo<Partial<GetOfferingsBody>>(
    () => ({ ownernick: nick, status: 'closed', limit: PAGE_SIZE.small }),
    [nick],
  );
  const query = useInfiniteQuery({
    queryKey: offeringKeys.market(body, viewer ?? '-'),
    queryFn: ({ pageParam, signal }) =>
      getOfferings(viewer, pageParam === null ? body : { ...body, last: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (answer) => answer.nextCursor,
    enabled: status !== 'loading',
  });
  const offerings = query.data?.pages.flatMap((answer) => answer.items) ?? [];
  if (query.isPending) {
    return (
      <Box
        role="status"
        aria-label={t('market.grid.loading')}
        aria-busy="true"
        sx={{ ...row, width: '100%', mt: 2 }}
      >
        {Array.from({ length: CAROUSEL_PAGE }, (_, index) => (
          <OfferingCardSkeleton key={index} dense />
        ))}
      </Box>
    );
  }
  if (query.isError || offerings.length === 0) return null;

  const loadedPages = Math.ceil(offerings.length / CAROUSEL_PAGE);
  const current = Math.min(page, loadedPages - 1);
  const shown = offerings.slice(current * CAROUSEL_PAGE, (current + 1) * CAROUSEL_PAGE);
  const last = current === loadedPages - 1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  // The next ten are read as the user reaches the last page read so far, so it fills up.
  const goTo = (target: number) => {
    setPage(target);
    if (target >= loadedPages - 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };
  return (
    <Box
      component="section"
      aria-labelledby={titleId}
      aria-roledescription="carousel"
      sx={{ width: '100%', textAlign: 'left', mt: 2 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography id={titleId} component="h2" sx={{ fontWeight: 700, fontSize: '1rem', flex: 1 }}>
          {t('market.userCard.title')}
        </Typography>
        <IconButton
          size="small"
          aria-label={t('market.userCard.previous')}
          disabled={current === 0}
          onClick={() => goTo(current - 1)}
        >
          <ChevronLeftRoundedIcon />
        </IconButton>
        <Typography
          variant="body2"
          color="text.secondary"
          aria-live="polite"
          sx={{ minWidth: 48, textAlign: 'center', fontFeatureSettings: '"tnum"' }}
        >
          {t('market.userCard.page', { page: current + 1, pages: loadedPages })}
        </Typography>
        <IconButton
          size="small"
          aria-label={t('market.userCard.next')}
          disabled={last && (!hasNextPage || isFetchingNextPage)}
          onClick={() =>
            last
              ? // The last read failed: read again, then move on if it brought another page.
                void fetchNextPage().then(() => setPage(current + 1))
              : goTo(current + 1)
          }
        >
          <ChevronRightRoundedIcon />
        </IconButton>
      </Box>
      <Box component="ul" aria-label={t('market.userCard.label', { nick })} sx={row}>
        {shown.map((offering) => (
          <Box component="li" key={offering.id} sx={{ minWidth: 0 }}>
            <OfferingCard offering={offering} dense headingLevel="h3" />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
