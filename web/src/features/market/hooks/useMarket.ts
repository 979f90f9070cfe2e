import { PAGE_SIZE } from '@shared/constants/limits';
import type { ServerMessage } from '@shared/realtime/messages';
import type { MyBidsFilter } from '@shared/schemas/bids';
import type {
  GetOfferingsBody,
  MyOfferingFilter,
  OfferingCard,
  OfferingPage,
} from '@shared/schemas/offerings';
import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAuth } from '../../../lib/auth';
import { bidKeys, getMyBids } from '../../../lib/bids';
import { useLiveMessages } from '../../../lib/liveChannel';
import {
  getFavorites,
  getMyOfferings,
  getMyOwnerCollections,
  getOfferings,
  offeringKeys,
} from '../../../lib/offerings';

/** The caller as the offerings' query keys name them ('-' for a guest); known once the session is. */
export function useViewer(): { id: string | null; key: string; known: boolean } {
  const { user, status } = useAuth();
  const id = user?.id ?? null;
  return { id, key: id ?? '-', known: status !== 'loading' };
}

const nextCursor = (page: OfferingPage) => page.nextCursor;

/**
 * A paged getofferings list (the market, a collection, the invitations, a seller's past ones):
 * `body` without `last`; each next page sends the previous answer's `nextCursor` as `last`.
 */
export function useOfferingsList(body: Partial<GetOfferingsBody>, enabled = true) {
  const viewer = useViewer();
  return useInfiniteQuery({
    queryKey: offeringKeys.market(body, viewer.key),
    queryFn: ({ pageParam, signal }) =>
      getOfferings(viewer.id, pageParam === null ? body : { ...body, last: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor,
    enabled: viewer.known && enabled,
  });
}

/** The caller's offerings (My Offerings), 50 a page, by status. */
export function useMyOfferings(userId: string | null, status: MyOfferingFilter) {
  return useInfiniteQuery({
    queryKey: offeringKeys.mine(userId ?? '', status),
    queryFn: ({ pageParam }) => getMyOfferings(userId ?? '', status, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor,
    enabled: userId !== null,
  });
}

/** Live events that change how the caller's bids stand (their own channel). */
const MY_BID_EVENTS = new Set<ServerMessage['type']>([
  'bid.response',
  'bid.outbid',
  'auction.result',
]);

/**
 * The auctions the caller bid on (My Bids), last bid first, by status (any, active, closed); read
 * again when the live channel says one of their bids moved (accepted, outbid, a result).
 */
export function useMyBids(userId: string | null, status: MyBidsFilter) {
  const queryClient = useQueryClient();
  useLiveMessages(
    useCallback(
      (message: ServerMessage) => {
        if (userId !== null && MY_BID_EVENTS.has(message.type)) {
          void queryClient.invalidateQueries({ queryKey: bidKeys.allMine(userId) });
        }
      },
      [queryClient, userId],
    ),
    userId !== null,
  );
  return useInfiniteQuery({
    queryKey: bidKeys.mine(userId ?? '', status),
    queryFn: ({ pageParam, signal }) => getMyBids(userId ?? '', status, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: userId !== null,
  });
}

/** The caller's favourites (the Favorites tab), 50 a page. */
export function useFavoritesList(userId: string | null) {
  return useInfiniteQuery({
    queryKey: offeringKeys.favorites(userId ?? ''),
    queryFn: ({ pageParam }) => getFavorites(userId ?? '', pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor,
    enabled: userId !== null,
  });
}

/**
 * The ids of all the caller's favourites, for the hearts of the market's cards (the cards do not
 * say whether they are the caller's favourites). Under the favourites' key, so whatever
 * invalidates the favourites refreshes it too.
 */
export const favoriteIdsKey = (userId: string) =>
  [...offeringKeys.favorites(userId), 'ids'] as const;
/** Pages read at most for the hearts (500 favourites); beyond, a heart shows empty. */
const MAX_FAVORITE_PAGES = 10;

export function useFavoriteIds(userId: string | null) {
  return useQuery({
    queryKey: favoriteIdsKey(userId ?? ''),
    queryFn: async () => {
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_FAVORITE_PAGES; page += 1) {
        const answer = await getFavorites(userId ?? '', cursor);
        ids.push(...answer.items.map((offering) => offering.id));
        if (answer.nextCursor === null) break;
        cursor = answer.nextCursor;
      }
      return ids;
    },
    enabled: userId !== null,
    staleTime: 60_000,
  });
}

/** The caller's collections (the Collections tab). */
export function useMyCollections(userId: string | null) {
  return useQuery({
    queryKey: offeringKeys.collections(userId ?? ''),
    queryFn: () => getMyOwnerCollections(userId ?? ''),
    enabled: userId !== null,
  });
}

type Pages = InfiniteData<OfferingPage, string | null>;

/**
 * The favourites' cache as a heart changes it at once: `apply` adds or removes an offering (the
 * ids, and the Favorites list when removing) and answers how to put everything back.
 */
export function useFavoritesCache(userId: string | null) {
  const queryClient = useQueryClient();
  return useCallback(
    (offering: OfferingCard, favorite: boolean): (() => void) => {
      if (userId === null) return () => undefined;
      const idsKey = favoriteIdsKey(userId);
      const listKey = offeringKeys.favorites(userId);
      const ids = queryClient.getQueryData<string[]>(idsKey);
      const list = queryClient.getQueryData<Pages>(listKey);
      if (ids !== undefined) {
        queryClient.setQueryData<string[]>(idsKey, [
          ...ids.filter((id) => id !== offering.id),
          ...(favorite ? [offering.id] : []),
        ]);
      }
      if (list !== undefined && !favorite) {
        queryClient.setQueryData<Pages>(listKey, {
          ...list,
          pages: list.pages.map((page) => ({
            ...page,
            items: page.items.filter((item) => item.id !== offering.id),
          })),
        });
      }
      return () => {
        if (ids !== undefined) queryClient.setQueryData(idsKey, ids);
        if (list !== undefined) queryClient.setQueryData(listKey, list);
      };
    },
    [queryClient, userId],
  );
}

export const MARKET_PAGE_SIZE = PAGE_SIZE.large;
export const STRIP_SIZE = PAGE_SIZE.small;
