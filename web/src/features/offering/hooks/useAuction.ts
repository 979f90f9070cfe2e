import { topicOf, type ServerMessage } from '@shared/realtime/messages';
import type { AssignedTokens, AuctionView, CreateBidBody, MyBid } from '@shared/schemas/bids';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { bidKeys, cancelBid, createBid, getAssignedTokens, getAuction } from '../../../lib/bids';
import { useLiveMessages } from '../../../lib/liveChannel';
import { offeringKeys } from '../../../lib/offerings';
import { fetchAddresses, fetchItem, fetchSavedCards, orderKeys } from '../../../lib/orders';
import { useViewer } from './useOfferings';

/** How often a lot past its end is read again until its winners are known (live or not). */
export const LOT_AFTER_END_POLL_MS = 5_000;

/**
 * Topic events (a new bid, the counters, an extension) reach every watcher of a lot at the same
 * moment. Each patches what the event carries at once and reads the whole lot (the bid list)
 * again at a random moment within this window, one read for all the events of the window: a hot
 * lot's 1,000 watchers make at most 1,000 reads per window, not 1,000 per bid, and not all at once.
 */
export const LOT_REFRESH_SPREAD_MS = 2_000;

/** Past its end and not closed yet: the close is running (live events may not reach us). */
function closing(lot: AuctionView | undefined, now: number): boolean {
  return lot !== undefined && lot.phase !== 'closed' && Date.parse(lot.end_at) <= now;
}

/**
 * An auction's lot (bid/getbyofferingid) as the viewer sees it: a guest the public lot, a user
 * also their own bid (`mine`). Once past its end it is read every 5 s until closed, so "Processing
 * winners" and the result come even without the live channel.
 */
export function useAuctionLot(offeringId: string, enabled: boolean) {
  const viewer = useViewer();
  return useQuery({
    queryKey: bidKeys.lot(offeringId, viewer.key),
    queryFn: ({ signal }) => getAuction(viewer.id, offeringId, signal),
    enabled: viewer.known && enabled,
    refetchInterval: (query) =>
      closing(query.state.data, Date.now()) ? LOT_AFTER_END_POLL_MS : false,
  });
}

/** The live fields of a lot a message carries (the rest comes with the refetch). */
type LotPatch = Partial<Pick<AuctionView, 'end_at' | 'minimBid' | 'highestBid' | 'bids' | 'phase'>>;

function defined(patch: LotPatch): LotPatch {
  return Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined),
  ) as LotPatch;
}

/** The bid statuses offered copies at the close (a winner's, a substitute's). */
const OFFERED = new Set<MyBid['status']>(['winner', 'substitute', 'substitute_winner']);

/**
 * Whether the caller has copies of the lot to see: it is closing or closed and their bid won, or
 * was offered the copies a winner did not pay for.
 */
export function offeredCopies(lot: AuctionView): boolean {
  return lot.phase !== 'open' && lot.mine !== null && OFFERED.has(lot.mine.status);
}

/**
 * The copies of an auction the caller won or was offered (offering/getassignedtokens): their
 * serials, and each one paid or to pay by when. Read on every visit (a payment made on the order
 * page since), again when the live channel brings the result, a phase or a payment, and when the
 * lot read again (its polling while it closes, without the live channel) moved the phase or the
 * caller's bid or order.
 */
export function useAssignedTokens(lot: AuctionView, userId: string) {
  const queryClient = useQueryClient();
  const enabled = offeredCopies(lot);
  const offeringId = lot.offeringid;
  const stamp = `${lot.phase}|${lot.mine?.status ?? ''}|${lot.mine?.order_id ?? ''}`;
  const seen = useRef({ stamp, enabled });
  useEffect(() => {
    const before = seen.current;
    if (before.stamp === stamp) return;
    seen.current = { stamp, enabled };
    // (Just enabled, the query reads them itself.)
    if (before.enabled && enabled) {
      void queryClient.invalidateQueries({ queryKey: bidKeys.assigned(offeringId, userId) });
    }
  }, [queryClient, stamp, enabled, offeringId, userId]);
  return useQuery({
    queryKey: bidKeys.assigned(offeringId, userId),
    queryFn: ({ signal }) => getAssignedTokens(userId, offeringId, signal),
    staleTime: 0,
    enabled,
  });
}

/**
 * Follows a lot live (spec 001 §7): subscribes to its topic (`offering:<id>`: bid.new,
 * auction.extended, auction.phase, offering.stats) and hears the viewer's own channel (bid.response,
 * bid.outbid, auction.result, order.paid, order.updated). Each message moves what it carries at
 * once (the end, so the countdown follows an extension; the minimum next bid; the phase) and reads
 * the lot again: at once for the viewer's own news and the phase, within LOT_REFRESH_SPREAD_MS for
 * what the topic tells every watcher; a reconnect, and the server's `subscribed` (the topic is
 * heard from then on, and anything it said before was missed), read it again at once too. The
 * phase and the result read the offering and the caller's copies again; a payment of one of those
 * copies' orders reads the copies and the lot.
 */
export function useAuctionLive(offeringId: string, enabled: boolean, seller: boolean): void {
  const queryClient = useQueryClient();
  const viewer = useViewer();
  const viewerKey = viewer.key;
  const userId = viewer.id;
  const topics = useMemo(() => [topicOf('offering', offeringId)], [offeringId]);
  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (refresh.current !== null) clearTimeout(refresh.current);
      refresh.current = null;
    },
    [offeringId],
  );
  const readLot = useCallback(
    (soon: boolean) => {
      const read = () => {
        if (refresh.current !== null) clearTimeout(refresh.current);
        refresh.current = null;
        void queryClient.invalidateQueries({ queryKey: bidKeys.lots(offeringId) });
      };
      if (!soon) return read();
      // One read per window for every event of it, at a moment of its own.
      if (refresh.current === null) {
        refresh.current = setTimeout(read, Math.random() * LOT_REFRESH_SPREAD_MS);
      }
    },
    [queryClient, offeringId],
  );
  const onMessage = useCallback(
    (message: ServerMessage) => {
      if (message.type === 'subscribed') {
        // The topic is heard from now on: what it said between the lot's read and now (a bid, an
        // extension) reached no one here, so the lot is read again.
        if (message.topic === topics[0]) readLot(false);
        return;
      }
      if (message.type === 'order.paid' || message.type === 'order.updated') {
        if (userId === null) return;
        const copies = queryClient.getQueryData<AssignedTokens>(
          bidKeys.assigned(offeringId, userId),
        );
        if (!copies?.tokens.some((token) => token.order_id === message.orderId)) return;
        void queryClient.invalidateQueries({ queryKey: bidKeys.allAssigned(offeringId) });
        void queryClient.invalidateQueries({ queryKey: bidKeys.lots(offeringId) });
        return;
      }
      if (!('offeringId' in message) || message.offeringId !== offeringId) return;
      let patch: LotPatch;
      let offeringChanged = false;
      // What every watcher hears at once is read again spread out; the viewer's own news now.
      const everyone =
        message.type === 'bid.new' ||
        message.type === 'offering.stats' ||
        message.type === 'auction.extended';
      switch (message.type) {
        case 'bid.new':
        case 'offering.stats':
          patch = {
            end_at: message.end_at,
            minimBid: message.minimBid,
            highestBid: message.highestBid,
            bids: message.bids,
          };
          // The seller's Delist depends on whether bids exist.
          offeringChanged = seller;
          break;
        case 'auction.extended':
          patch = { end_at: message.end_at };
          break;
        case 'auction.phase':
          patch = { phase: message.phase };
          offeringChanged = true;
          break;
        case 'bid.response':
        case 'bid.outbid':
          patch = { minimBid: message.minimBid };
          break;
        case 'auction.result':
          patch = {};
          offeringChanged = true;
          break;
        default:
          return;
      }
      const changes = defined(patch);
      queryClient.setQueryData<AuctionView>(bidKeys.lot(offeringId, viewerKey), (current) =>
        current ? { ...current, ...changes } : current,
      );
      readLot(everyone);
      if (offeringChanged) {
        void queryClient.invalidateQueries({
          queryKey: offeringKeys.detail(offeringId, viewerKey),
        });
      }
      if (message.type === 'auction.phase' || message.type === 'auction.result') {
        void queryClient.invalidateQueries({ queryKey: bidKeys.allAssigned(offeringId) });
      }
      if (userId !== null && message.type !== 'bid.new' && message.type !== 'offering.stats') {
        void queryClient.invalidateQueries({ queryKey: bidKeys.allMine(userId) });
      }
    },
    [queryClient, offeringId, viewerKey, userId, seller, readLot, topics],
  );
  const onOpen = useCallback(
    ({ reconnect }: { reconnect: boolean }) => {
      if (reconnect) void queryClient.invalidateQueries({ queryKey: bidKeys.lots(offeringId) });
    },
    [queryClient, offeringId],
  );
  useLiveMessages(onMessage, enabled && viewer.known, { onOpen, topics });
}

/** The lot an answer (bid, cancellation) gave: into the cache, and the lists that show it. */
function useStoreLot(offeringId: string) {
  const queryClient = useQueryClient();
  const viewer = useViewer();
  return useCallback(
    (view: AuctionView) => {
      queryClient.setQueryData(bidKeys.lot(offeringId, viewer.key), view);
      void queryClient.invalidateQueries({ queryKey: offeringKeys.detail(offeringId, viewer.key) });
      if (viewer.id !== null) {
        void queryClient.invalidateQueries({ queryKey: bidKeys.allMine(viewer.id) });
      }
    },
    [queryClient, offeringId, viewer.key, viewer.id],
  );
}

/** The panel shows each failure itself, so the global mutation toast stays quiet. */
const shownByThePanel = () => undefined;

export function usePlaceBid(offeringId: string, userId: string) {
  const store = useStoreLot(offeringId);
  return useMutation({
    mutationFn: (body: CreateBidBody) => createBid(userId, body),
    onSuccess: store,
    onError: shownByThePanel,
  });
}

export function useCancelBid(offeringId: string, userId: string) {
  const store = useStoreLot(offeringId);
  return useMutation({
    mutationFn: () => cancelBid(userId, offeringId),
    onSuccess: store,
    onError: shownByThePanel,
  });
}

/**
 * The caller's saved cards (the card backing a bid), read fresh on arrival (a card added on
 * Stripe's page since) and again when the live channel says they changed.
 */
export function useBidCards(userId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  useLiveMessages(
    useCallback(
      (message: ServerMessage) => {
        if (message.type === 'payments.cards_updated') {
          void queryClient.invalidateQueries({ queryKey: orderKeys.cards(userId) });
        }
      },
      [queryClient, userId],
    ),
    enabled,
  );
  return useQuery({
    queryKey: orderKeys.cards(userId),
    queryFn: ({ signal }) => fetchSavedCards(signal),
    staleTime: 0,
    enabled,
  });
}

/** The item of a physical offering, for its shipping (delivered, and to which countries). */
export function useItemShipping(itemId: string, userId: string, enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.item(itemId, userId),
    queryFn: ({ signal }) => fetchItem(userId, itemId, signal),
    enabled,
  });
}

export function useBidAddresses(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.addresses(userId),
    queryFn: ({ signal }) => fetchAddresses(userId, signal),
    enabled,
  });
}
