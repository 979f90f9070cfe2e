import { PAGE_SIZE } from '@shared/constants/limits';
import type { ServerMessage } from '@shared/realtime/messages';
import type { OfferingDetail } from '@shared/schemas/offerings';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useLiveMessages } from '../../../lib/liveChannel';
import { getOfferingById, getOfferings, offeringKeys } from '../../../lib/offerings';

/** The caller as the offerings' query keys name them ('-' for a guest). */
export function useViewer(): { id: string | null; key: string; known: boolean } {
  const { user, status } = useAuth();
  const id = user?.id ?? null;
  return { id, key: id ?? '-', known: status !== 'loading' };
}

/** The offerings of an item the viewer may see (published; private ones they are invited to). */
export function useItemOfferings(itemId: string) {
  const viewer = useViewer();
  const filters = { item_id: itemId, limit: PAGE_SIZE.small };
  return useInfiniteQuery({
    queryKey: offeringKeys.market(filters, viewer.key),
    queryFn: ({ pageParam, signal }) =>
      getOfferings(viewer.id, pageParam ? { ...filters, last: pageParam } : filters, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: viewer.known,
  });
}

/** One offering as the viewer sees it (getofferingbyid): 404 for a private one not theirs. */
export function useOfferingDetail(offeringId: string, enabled = true) {
  const viewer = useViewer();
  return useQuery({
    queryKey: offeringKeys.detail(offeringId, viewer.key),
    queryFn: ({ signal }) => getOfferingById(viewer.id, offeringId, signal),
    enabled: viewer.known && enabled,
  });
}

/** Whether a call answered that the thing does not exist (or is not the caller's to see). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** Writes an offering's newer state into the cache: a call's answer, or a change of some fields. */
export function useOfferingCache() {
  const queryClient = useQueryClient();
  const { key } = useViewer();
  const store = useCallback(
    (offering: OfferingDetail) =>
      queryClient.setQueryData(offeringKeys.detail(offering.id, key), offering),
    [queryClient, key],
  );
  const patch = useCallback(
    (offeringId: string, changes: Partial<OfferingDetail>) =>
      queryClient.setQueryData<OfferingDetail>(offeringKeys.detail(offeringId, key), (current) =>
        current ? { ...current, ...changes } : current,
      ),
    [queryClient, key],
  );
  return { store, patch };
}

/** Statuses after which the item's copies changed hands or came back to their owner. */
const COPIES_MOVED = new Set(['delisted', 'sold', 'expired', 'not_validated']);

/**
 * Live: an `offering.updated` event for one of the offerings shown reads it again (and tells
 * `onCopiesMoved` when its copies changed); after a reconnect every shown offering is read again,
 * and when the socket first opens the viewer's own ones (the event goes to the seller alone).
 */
export function useOfferingsLive(shown: readonly string[], onCopiesMoved?: () => void): void {
  const queryClient = useQueryClient();
  const viewer = useViewer();
  const ids = useRef<ReadonlySet<string>>(new Set());
  const moved = useRef(onCopiesMoved);
  useEffect(() => {
    ids.current = new Set(shown);
    moved.current = onCopiesMoved;
  }, [shown, onCopiesMoved]);
  const viewerKey = viewer.key;
  const onMessage = useCallback(
    (message: ServerMessage) => {
      if (message.type !== 'offering.updated' || !ids.current.has(message.offeringId)) return;
      void queryClient.invalidateQueries({
        queryKey: offeringKeys.detail(message.offeringId, viewerKey),
      });
      if (message.status !== undefined && COPIES_MOVED.has(message.status)) moved.current?.();
    },
    [queryClient, viewerKey],
  );
  const onOpen = useCallback(
    ({ reconnect }: { reconnect: boolean }) => {
      for (const id of ids.current) {
        const queryKey = offeringKeys.detail(id, viewerKey);
        // The first opening: only the seller hears `offering.updated`, so only their offerings,
        // read before the socket was there, may have missed one (a listing approved meanwhile).
        if (!reconnect && queryClient.getQueryData<OfferingDetail>(queryKey)?.is_seller !== true) {
          continue;
        }
        void queryClient.invalidateQueries({ queryKey });
      }
    },
    [queryClient, viewerKey],
  );
  useLiveMessages(onMessage, shown.length > 0, { onOpen });
}

/** The clock, read again every `everyMs` (time left). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
