import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TIMINGS } from '@shared/constants/limits';
import type { ServerMessage } from '@shared/realtime/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveMessages, type LiveOpenInfo } from '../../../lib/liveChannel';
import { fetchUnreadCounters, notificationKeys } from '../api/notifications';

/**
 * The signed-in user's unread counters (GET …/unread), kept live (spec 001 §4, §7):
 * `notification.created` sets the counters it carries, rings the bell for 10 s and refetches the
 * count and the list; `notification.updated` (another tab read or unread some) sets the counters;
 * after a reconnect the counters (and the list, if shown) are fetched again, so nothing sent while
 * the socket was closed is missed.
 */
export function useNotificationCounters(userId: string) {
  const queryClient = useQueryClient();
  const [ringing, setRinging] = useState(false);
  const stopRinging = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const query = useQuery({
    queryKey: notificationKeys.counters(userId),
    queryFn: ({ signal }) => fetchUnreadCounters(userId, signal),
  });

  const onMessage = useCallback(
    (message: ServerMessage) => {
      if (message.type === 'notification.created') {
        queryClient.setQueryData(notificationKeys.counters(userId), message.counters);
        void queryClient.invalidateQueries({ queryKey: notificationKeys.user(userId) });
        setRinging(true);
        clearTimeout(stopRinging.current);
        stopRinging.current = setTimeout(() => setRinging(false), TIMINGS.bellRingMs);
      } else if (message.type === 'notification.updated') {
        queryClient.setQueryData(notificationKeys.counters(userId), message.counters);
        // The list's read marks changed elsewhere: fetched again when next shown.
        void queryClient.invalidateQueries({
          queryKey: notificationKeys.list(userId),
          refetchType: 'none',
        });
      }
    },
    [queryClient, userId],
  );
  const onOpen = useCallback(
    ({ reconnect }: LiveOpenInfo) => {
      if (reconnect)
        void queryClient.invalidateQueries({ queryKey: notificationKeys.user(userId) });
    },
    [queryClient, userId],
  );
  useLiveMessages(onMessage, true, { onOpen });
  useEffect(() => () => clearTimeout(stopRinging.current), []);

  return { counters: query.data, ringing };
}
