import { DomainError } from '../core/errors';
import { newId } from '../core/ids';
import type { ServerMessageDraft } from '../../shared/realtime/messages';
import {
  NOTIFICATIONS_PAGE_SIZE,
  readUnsubscribeToken,
  type EmailGroup,
  type ListNotificationsQuery,
  type MarkNotificationBody,
  type Notification,
  type NotificationPage,
  type NotificationPreferences,
  type UnreadCounters,
  type UpdatePreferencesBody,
} from '../../shared/schemas/notifications';
import type { NotificationsRepo, StateRecord } from './notifications.repo';
import {
  counterSectionOf,
  countersOf,
  effectiveRead,
  preferencesOf,
  readChange,
  type ReadWatermark,
} from './notifications.rules';
import { notificationOf } from './notify';
import { verifyUnsubscribeToken } from './unsubscribe-token';

/**
 * The notifications calls (spec 001 §7): the caller's list and counters, read and unread, mark
 * all, e-mail preferences and the e-mails' unsubscribe link. `userId` is always the caller (the
 * routes' `owner: 'id'`), except for unsubscribe, which trusts only its signed token.
 */
export interface NotificationsDeps {
  repo: NotificationsRepo;
  publish(userId: string, message: ServerMessageDraft): Promise<void>;
}

const MAX_ATTEMPTS = 8;

function watermarkOf(state: StateRecord | undefined): ReadWatermark {
  return {
    ...(typeof state?.read_before === 'string' ? { read_before: state.read_before } : {}),
    ...(typeof state?.read_epoch === 'string' ? { read_epoch: state.read_epoch } : {}),
  };
}

function notFound(): DomainError {
  return new DomainError('notifications.errors.not_found', {
    message: 'There is no such notification.',
  });
}

export async function listNotifications(
  deps: Pick<NotificationsDeps, 'repo'>,
  userId: string,
  query: ListNotificationsQuery,
): Promise<NotificationPage> {
  const [state, page] = await Promise.all([
    deps.repo.getState(userId),
    deps.repo.listNotifications(userId, {
      cursor: query.cursor,
      limit: NOTIFICATIONS_PAGE_SIZE,
      section: query.section,
    }),
  ]);
  const watermark = watermarkOf(state);
  return {
    notifications: page.items.map((item) => notificationOf(item, effectiveRead(item, watermark))),
    nextCursor: page.nextCursor,
  };
}

export async function unreadCounters(
  deps: Pick<NotificationsDeps, 'repo'>,
  userId: string,
): Promise<UnreadCounters> {
  return countersOf(await deps.repo.getState(userId));
}

/** PUT …/{notificationId} {read}: read, or back to unread; a repeat changes nothing. */
export async function markNotification(
  deps: NotificationsDeps,
  userId: string,
  notificationId: string,
  body: MarkNotificationBody,
): Promise<{ notification: Notification; counters: UnreadCounters }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const [state, item] = await Promise.all([
      deps.repo.getState(userId),
      deps.repo.getNotification(userId, notificationId),
    ]);
    if (item === undefined) throw notFound();
    if (body.activity !== undefined && body.activity !== item.activity) {
      throw new DomainError('notifications.errors.activity_mismatch', {
        message: `This notification is a ${item.activity}, not a ${body.activity}.`,
      });
    }
    const watermark = watermarkOf(state);
    const current = effectiveRead(item, watermark);
    const change = readChange(current, body.read);
    if (!change.changed) {
      return { notification: notificationOf(item, current), counters: countersOf(state) };
    }
    const outcome = await deps.repo.setRead({
      userId,
      item,
      read: body.read,
      delta: change.delta,
      section: counterSectionOf(item.activity),
      watermark,
    });
    if (outcome === 'done') {
      const counters = countersOf(await deps.repo.getState(userId));
      await deps.publish(userId, { type: 'notification.updated', counters });
      return { notification: notificationOf(item, body.read), counters };
    }
  }
  throw new DomainError('unavailable', { message: 'The notification is changing; try again.' });
}

/**
 * POST …/sidebarmarkallread: one write whatever the number of unread notifications (the read
 * watermark moves to the newest notification), retried if a notification arrives meanwhile.
 */
export async function markAllRead(
  deps: NotificationsDeps,
  userId: string,
  now: Date,
): Promise<UnreadCounters> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const state = await deps.repo.getState(userId);
    const version = typeof state?.version === 'number' ? state.version : undefined;
    if (state === undefined || version === undefined) return countersOf(undefined);
    const newest = await deps.repo.newestId(userId);
    if (newest === undefined) return countersOf(state);
    const outcome = await deps.repo.markAll({ userId, version, newest, epoch: newId(now) });
    if (outcome === 'done') {
      const counters = countersOf(await deps.repo.getState(userId));
      await deps.publish(userId, { type: 'notification.updated', counters });
      return counters;
    }
  }
  throw new DomainError('unavailable', { message: 'Notifications keep arriving; try again.' });
}

export async function getPreferences(
  deps: Pick<NotificationsDeps, 'repo'>,
  userId: string,
): Promise<NotificationPreferences> {
  return preferencesOf(await deps.repo.getState(userId));
}

export async function updatePreferences(
  deps: Pick<NotificationsDeps, 'repo'>,
  userId: string,
  body: UpdatePreferencesBody,
): Promise<NotificationPreferences> {
  return preferencesOf(await deps.repo.setPreferences(userId, body.email));
}

function invalidToken(): DomainError {
  return new DomainError('notifications.errors.unsubscribe_invalid', {
    message: 'This unsubscribe link is not valid.',
    fields: { token: 'notifications.errors.unsubscribe_invalid' },
  });
}

/** POST …/unsubscribe {token}: turns the token's group off for its user, without a session. */
export async function unsubscribe(
  deps: Pick<NotificationsDeps, 'repo'>,
  token: string,
): Promise<{ group: EmailGroup }> {
  const parsed = readUnsubscribeToken(token);
  if (parsed === null) throw invalidToken();
  const state = await deps.repo.getState(parsed.userId);
  const key = state?.email_key;
  if (typeof key !== 'string') throw invalidToken();
  const verified = verifyUnsubscribeToken(key, token);
  if (verified === null) throw invalidToken();
  await deps.repo.setPreferences(verified.userId, { [verified.group]: false });
  return { group: verified.group };
}
