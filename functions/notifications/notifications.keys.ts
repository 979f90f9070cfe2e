/**
 * Notifications: key builders. Access patterns:
 *
 * | pattern                                          | key condition                                 | index |
 * |--------------------------------------------------|-----------------------------------------------|-------|
 * | a user's notifications, newest first (paged)     | pk = NOTIFY#<user>, sk begins_with N#         | table |
 * | one notification                                 | pk = NOTIFY#<user>, sk = N#<id>               | table |
 * | a source event already notified (idempotency)    | pk = NOTIFY#<user>, sk = EVENT#<hash>         | table |
 * | the user's unread counters, read watermark,      | pk = NOTIFY#<user>, sk = STATE                | table |
 * | e-mail preferences and unsubscribe key           |                                               |       |
 *
 * A notification is written in one TransactWriteItems with its event guard (attribute_not_exists:
 * the same source event never notifies twice) and the counters (ADD), so the counters are exact
 * under concurrency. Notification ids are ULIDs: the sort key orders them by time. Notifications
 * and guards expire (ttl) after NOTIFICATION_RETENTION_DAYS; STATE is kept.
 */
export const NOTIFICATION_TYPE = 'notification';
export const NOTIFICATION_EVENT_TYPE = 'notification_event';
export const NOTIFICATION_STATE_TYPE = 'notification_state';

/** How long notifications (and their event guards) are kept. */
export const NOTIFICATION_RETENTION_DAYS = 90;

export interface Key {
  pk: string;
  sk: string;
}

export const NOTIFICATION_PREFIX = 'N#';

export function notificationsPartition(userId: string): string {
  return `NOTIFY#${userId}`;
}

export function notificationKey(userId: string, notificationId: string): Key {
  return { pk: notificationsPartition(userId), sk: `${NOTIFICATION_PREFIX}${notificationId}` };
}

export function eventGuardKey(userId: string, eventHash: string): Key {
  return { pk: notificationsPartition(userId), sk: `EVENT#${eventHash}` };
}

export function stateKey(userId: string): Key {
  return { pk: notificationsPartition(userId), sk: 'STATE' };
}
