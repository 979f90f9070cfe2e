import {
  markNotificationAnswerSchema,
  notificationPageSchema,
  unreadCountersSchema,
  type Notification,
  type NotificationPage,
  type UnreadCounters,
} from '@shared/schemas/notifications';
import { apiGet, apiPost, apiRequest } from '../../../lib/api';

/**
 * The notifications calls of spec 001 §7 (shared/schemas/notifications.ts,
 * functions/notifications/notifications.routes.ts). `{id}` is always the caller.
 */
const base = (userId: string) => `/notifications/${encodeURIComponent(userId)}`;

export const notificationKeys = {
  all: ['notifications'] as const,
  user: (userId: string) => [...notificationKeys.all, userId] as const,
  counters: (userId: string) => [...notificationKeys.user(userId), 'unread'] as const,
  list: (userId: string) => [...notificationKeys.user(userId), 'list'] as const,
};

/**
 * Of the counters held and those received, the newer: the higher version, or the received ones on
 * a tie. Counters reach a tab in any order (a live event, a call's answer, a fetch that started
 * before the last change), and an older copy must not undo a newer one.
 */
export function newerCounters(
  held: UnreadCounters | undefined,
  received: UnreadCounters,
): UnreadCounters {
  return held !== undefined && held.version > received.version ? held : received;
}

/** GET /api/notifications/{id}/unread → the unread counters, in total and per section. */
export function fetchUnreadCounters(userId: string, signal?: AbortSignal): Promise<UnreadCounters> {
  return apiGet(`${base(userId)}/unread`, { schema: unreadCountersSchema, signal });
}

/** GET /api/notifications/{id}?cursor= → a page of 10, newest first. */
export function fetchNotifications(
  userId: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<NotificationPage> {
  return apiGet(base(userId), {
    query: { cursor: cursor ?? undefined },
    schema: notificationPageSchema,
    signal,
  });
}

/** PUT /api/notifications/{id}/{notificationId} {read, activity, mode: 'sidebar'}. */
export function markNotification(
  userId: string,
  notification: Pick<Notification, 'id' | 'activity'>,
  read: boolean,
): Promise<{ notification: Notification; counters: UnreadCounters }> {
  return apiRequest(`${base(userId)}/${encodeURIComponent(notification.id)}`, {
    method: 'PUT',
    body: { read, activity: notification.activity, mode: 'sidebar' },
    schema: markNotificationAnswerSchema,
  });
}

/** POST /api/notifications/{id}/sidebarmarkallread → the counters (all 0). */
export function markAllNotificationsRead(userId: string): Promise<UnreadCounters> {
  return apiPost(`${base(userId)}/sidebarmarkallread`, undefined, { schema: unreadCountersSchema });
}
