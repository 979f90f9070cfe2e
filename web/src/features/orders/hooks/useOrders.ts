import type { ServerMessage } from '@shared/realtime/messages';
import type { Order, UpdateOrderBody } from '@shared/schemas/orders';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../../lib/api';
import { useLiveMessages } from '../../../lib/liveChannel';
import {
  getMarketOrders,
  getOrder,
  getWalletActivity,
  ORDER_POLL_MS,
  orderKeys,
  POLLED_STATUSES,
  retrieveCheckoutSession,
  updateOrder,
} from '../../../lib/orders';

/**
 * One order: refetched when the live channel says it moved (`order.updated`) or reconnects, and
 * every 5 s while its payment is under way (accepted, payment_intent_created,
 * payment_intent_success), in case a live message was missed.
 */
export function useOrder(orderId: string) {
  const queryClient = useQueryClient();
  const onMessage = useCallback(
    (message: ServerMessage) => {
      if (message.type === 'order.updated' && message.orderId === orderId) {
        void queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId) });
      }
    },
    [queryClient, orderId],
  );
  const onOpen = useCallback(
    ({ reconnect }: { reconnect: boolean }) => {
      if (reconnect) void queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId) });
    },
    [queryClient, orderId],
  );
  useLiveMessages(onMessage, true, { onOpen });
  return useQuery({
    queryKey: orderKeys.detail(orderId),
    queryFn: ({ signal }) => getOrder(orderId, signal),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status !== undefined && POLLED_STATUSES.includes(status) ? ORDER_POLL_MS : false;
    },
  });
}

/** Where a Stripe Checkout session stands (the return to the order page). */
export function useCheckoutSession(sessionId: string | null) {
  return useQuery({
    queryKey: orderKeys.checkoutSession(sessionId ?? ''),
    queryFn: () => retrieveCheckoutSession(sessionId ?? ''),
    enabled: sessionId !== null,
    retry: false,
  });
}

/**
 * A party moves its order (ship, confirm receipt, cancel, ready): the answer replaces the cached
 * order, and the lists are read again. The dialog shows a failure itself.
 */
export function useOrderAction(userId: string, orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrderBody) => updateOrder(userId, orderId, body),
    onSuccess: (order: Order) => {
      queryClient.setQueryData(orderKeys.detail(order.id), order);
      void queryClient.invalidateQueries({ queryKey: orderKeys.market(userId) });
      void queryClient.invalidateQueries({ queryKey: orderKeys.activity(userId) });
    },
    onError: () => undefined,
  });
}

/** The caller's orders, bought and sold, newest first; read again when one of them moves. */
export function useMarketOrders(userId: string) {
  const queryClient = useQueryClient();
  useLiveMessages(
    useCallback(
      (message: ServerMessage) => {
        if (message.type === 'order.updated') {
          void queryClient.invalidateQueries({ queryKey: orderKeys.market(userId) });
        }
      },
      [queryClient, userId],
    ),
  );
  return useInfiniteQuery({
    queryKey: orderKeys.market(userId),
    queryFn: ({ pageParam, signal }) => getMarketOrders(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useWalletActivity(userId: string) {
  return useInfiniteQuery({
    queryKey: orderKeys.activity(userId),
    queryFn: ({ pageParam, signal }) => getWalletActivity(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** Whether a call answered that the order is not there (or not the caller's). */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && [400, 403, 404].includes(error.status);
}
