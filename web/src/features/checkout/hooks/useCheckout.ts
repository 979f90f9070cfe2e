import type { ServerMessage } from '@shared/realtime/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../../lib/api';
import { useLiveMessages } from '../../../lib/liveChannel';
import { getOfferingById, offeringKeys } from '../../../lib/offerings';
import {
  fetchAddresses,
  fetchItem,
  fetchSavedCards,
  getOrder,
  orderKeys,
} from '../../../lib/orders';

/** The offering being bought, as the buyer sees it (shares the item page's cache entry). */
export function useCheckoutOffering(offeringId: string, userId: string) {
  return useQuery({
    queryKey: offeringKeys.detail(offeringId, userId),
    queryFn: ({ signal }) => getOfferingById(userId, offeringId, signal),
    // The copies left decide the quantity: read it fresh on arrival.
    staleTime: 0,
  });
}

/**
 * The order of the URL (`?order=`), read again when the live channel says it moved (the booking
 * expired, a payment went through) and after a reconnect.
 */
export function useCheckoutOrder(orderId: string | null) {
  const queryClient = useQueryClient();
  const onMessage = useCallback(
    (message: ServerMessage) => {
      if (message.type === 'order.updated' && message.orderId === orderId) {
        void queryClient.invalidateQueries({ queryKey: orderKeys.detail(message.orderId) });
      }
    },
    [queryClient, orderId],
  );
  const onOpen = useCallback(
    ({ reconnect }: { reconnect: boolean }) => {
      if (reconnect && orderId) {
        void queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId) });
      }
    },
    [queryClient, orderId],
  );
  useLiveMessages(onMessage, orderId !== null, { onOpen });
  return useQuery({
    queryKey: orderKeys.detail(orderId ?? ''),
    queryFn: ({ signal }) => getOrder(orderId ?? '', signal),
    enabled: orderId !== null,
  });
}

/** The item of a physical offering, for its shipping (delivery countries, or the pick-up place). */
export function useItemShipping(itemId: string, userId: string, enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.item(itemId, userId),
    queryFn: ({ signal }) => fetchItem(userId, itemId, signal),
    enabled,
  });
}

export function useSavedAddresses(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: orderKeys.addresses(userId),
    queryFn: ({ signal }) => fetchAddresses(userId, signal),
    enabled,
  });
}

export function useSavedCards(userId: string) {
  return useQuery({
    queryKey: orderKeys.cards(userId),
    queryFn: ({ signal }) => fetchSavedCards(signal),
    staleTime: 0,
  });
}

/** Whether a call answered that what it names is not there, or not the caller's to see. */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && [400, 403, 404].includes(error.status);
}

/** Whether a failed call may be sent again as it was (no answer, or the server failed). */
export function isRetriable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}
