import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TIMINGS } from '@shared/constants/limits';
import type { ServerMessage } from '@shared/realtime/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UnreadCounters } from '@shared/schemas/notifications';
import { useLiveMessages } from '../../../lib/liveChannel';
import { fetchUnreadCounters, newerCounters, notificationKeys } from '../api/notifications';

/**
 * The signed-in user's unread counters (GET …/unread), kept live (spec 001 §4, §7):
 * `notification.created` sets the counters it carries, rings the bell for 10 s and refetches the
 * count and the list; `notification.updated` (another tab read or unread some) sets the counters;
 * once the socket opens, and again after each reconnect, the counters (and the list, if shown) are
 * fetched again, so nothing sent before it was there or while it was closed is missed. Whatever
 * their way in, older counters (a lower version: a fetch answered after a newer event) never
 * replace newer ones.
 */
export function useNotificationCounters(userId: string) {
  const queryClient = useQueryClient();
  const [ringing, setRinging] = useState(false);
  const stopRinging = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const query = useQuery({
    queryKey: notificationKeys.counters(userId),
    queryFn: ({ signal }) => fetchUnreadCounters(userId, signal),
    // Every write of the counters passes here, its own fetches and every `setQueryData` (the live
    // events, the marks' answers and guesses): an older copy never replaces a newer one.
    structuralSharing: (held, received) =>
      newerCounters(held as UnreadCounters | undefined, received as UnreadCounters),
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
  // Every opening, the first one too: the counters were fetched before the socket was there (the
  // bell mounts first), and a notification sent in between reaches no tab. A fetch still on its
  // way may have read before it too: it is dropped and made again.
  const onOpen = useCallback(() => {
    const queryKey = notificationKeys.user(userId);
    void queryClient
      .cancelQueries({ queryKey })
      .then(() => queryClient.invalidateQueries({ queryKey }));
  }, [queryClient, userId]);
  useLiveMessages(onMessage, true, { onOpen });
  useEffect(() => () => clearTimeout(stopRinging.current), []);

  return { counters: query.data, ringing };
}
