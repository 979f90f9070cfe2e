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

/** The counters with one notification of `section` read (-1) or unread (+1). */
function shiftCounters(
  counters: UnreadCounters | undefined,
  section: Notification['type'],
  delta: number,
): UnreadCounters | undefined {
  if (!counters) return counters;
  return {
    unread: Math.max(0, counters.unread + delta),
    sections: { ...counters.sections, [section]: Math.max(0, counters.sections[section] + delta) },
  };
}

const NO_UNREAD: UnreadCounters = {
  unread: 0,
  sections: Object.fromEntries(NOTIFICATION_SECTIONS.map((section) => [section, 0])) as Record<
    (typeof NOTIFICATION_SECTIONS)[number],
    number
  >,
};

/** Which change is the newest: only its answer's counters are kept. */
let changes = 0;

/**
 * Mark one notification read or unread, or all read: shown at once (the list and the counters),
 * sent, and undone with a toast if the call fails.
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
      changes += 1;
      return { change: changes };
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
      queryClient.setQueryData(countersKey, NO_UNREAD);
      changes += 1;
      return { change: changes, unread };
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
