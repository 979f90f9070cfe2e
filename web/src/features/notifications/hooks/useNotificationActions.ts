import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  NOTIFICATION_SECTIONS,
  type Notification,
  type NotificationPage,
  type UnreadCounters,
} from '@shared/schemas/notifications';
import { useErrorText } from '../../../lib/errors';
import { toasts } from '../../../lib/toast';
import { markAllNotificationsRead, markNotification, notificationKeys } from '../api/notifications';

type ListData = InfiniteData<NotificationPage, string | null>;

/** Every notification of the loaded pages with `change` applied. */
function mapList(data: ListData | undefined, change: (item: Notification) => Notification) {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, notifications: page.notifications.map(change) })),
  };
}

/** The counters with one notification of `section` read (-1) or unread (+1), a guess until answered. */
function shiftCounters(
  counters: UnreadCounters | undefined,
  section: Notification['type'],
  delta: number,
): UnreadCounters | undefined {
  if (!counters) return counters;
  return {
    ...counters,
    unread: Math.max(0, counters.unread + delta),
    sections: { ...counters.sections, [section]: Math.max(0, counters.sections[section] + delta) },
  };
}

/** The counters once all are read, a guess until answered (the version of those it replaces). */
function noUnread(counters: UnreadCounters | undefined): UnreadCounters {
  return {
    unread: 0,
    version: counters?.version ?? 0,
    sections: Object.fromEntries(NOTIFICATION_SECTIONS.map((section) => [section, 0])) as Record<
      (typeof NOTIFICATION_SECTIONS)[number],
      number
    >,
  };
}

/** Which change is the newest: only its answer's counters are kept. */
let changes = 0;
/** Changes sent and not answered yet, and whether two of them were on their way at once. */
let inFlight = 0;
let overlapped = false;

/**
 * A change is on its way. Two at once may be applied by the server in either order, so the newest
 * answer's counters may not count the other one: once both are answered the counters are read.
 */
function sending(): number {
  if (inFlight > 0) overlapped = true;
  inFlight += 1;
  changes += 1;
  return changes;
}

/** A change answered: whether the counters must be read again (the last of overlapping ones). */
function answered(): boolean {
  inFlight -= 1;
  if (inFlight > 0 || !overlapped) return false;
  overlapped = false;
  return true;
}

/**
 * Mark one notification read or unread, or all read: shown at once (the list and the counters),
 * sent, and undone with a toast if the call fails. The counters query keeps the newer of what it
 * holds and what it is given (useNotificationCounters), so an answer older than a live event
 * does not undo it.
 */
export function useNotificationActions(userId: string) {
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const listKey = notificationKeys.list(userId);
  const countersKey = notificationKeys.counters(userId);

  const setRead = (id: string, read: boolean) =>
    queryClient.setQueryData<ListData>(listKey, (data) =>
      mapList(data, (item) => (item.id === id ? { ...item, read } : item)),
    );
  const failed = (error: unknown) => {
    void queryClient.invalidateQueries({ queryKey: countersKey });
    toasts.show({ severity: 'error', message: errorText(error) });
  };

  const mark = useMutation({
    mutationFn: ({ notification, read }: { notification: Notification; read: boolean }) =>
      markNotification(userId, notification, read),
    onMutate: ({ notification, read }) => {
      void queryClient.cancelQueries({ queryKey: countersKey });
      setRead(notification.id, read);
      if (notification.read !== read) {
        queryClient.setQueryData<UnreadCounters>(countersKey, (counters) =>
          shiftCounters(counters, notification.type, read ? -1 : 1),
        );
      }
      return { change: sending() };
    },
    onError: (error, { notification }) => {
      setRead(notification.id, notification.read);
      failed(error);
    },
    onSuccess: (answer, _variables, context) => {
      if (context.change !== changes) return;
      queryClient.setQueryData(countersKey, answer.counters);
      setRead(answer.notification.id, answer.notification.read);
    },
    onSettled: () => {
      if (answered()) void queryClient.invalidateQueries({ queryKey: countersKey });
    },
  });

  const markAll = useMutation({
    mutationFn: () => markAllNotificationsRead(userId),
    onMutate: () => {
      void queryClient.cancelQueries({ queryKey: countersKey });
      const unread = new Set<string>();
      queryClient.setQueryData<ListData>(listKey, (data) =>
        mapList(data, (item) => {
          if (!item.read) unread.add(item.id);
          return item.read ? item : { ...item, read: true };
        }),
      );
      queryClient.setQueryData<UnreadCounters>(countersKey, noUnread);
      return { change: sending(), unread };
    },
    onError: (error, _variables, context) => {
      const unread = context?.unread ?? new Set<string>();
      queryClient.setQueryData<ListData>(listKey, (data) =>
        mapList(data, (item) => (unread.has(item.id) ? { ...item, read: false } : item)),
      );
      failed(error);
    },
    onSuccess: (counters, _variables, context) => {
      if (context.change === changes) queryClient.setQueryData(countersKey, counters);
    },
    onSettled: () => {
      if (answered()) void queryClient.invalidateQueries({ queryKey: countersKey });
    },
  });

  return {
    markRead: (notification: Notification) => {
      if (!notification.read) mark.mutate({ notification, read: true });
    },
    markUnread: (notification: Notification) => {
      if (notification.read) mark.mutate({ notification, read: false });
    },
    markAllRead: () => markAll.mutate(),
    markingAll: markAll.isPending,
  };
}
