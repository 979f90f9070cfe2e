import { createHash } from 'node:crypto';
import { newId } from '../core/ids';
import { logger } from '../core/logger';
import type { ServerMessageDraft } from '../../shared/realtime/messages';
import {
  notificationPayloadSchema,
  type Notification,
  type NotificationActivity,
  type NotificationPayload,
  type UnreadCounters,
} from '../../shared/schemas/notifications';
import { notificationEmail } from './notifications.email';
import { NOTIFICATION_RETENTION_DAYS } from './notifications.keys';
import type { NotificationsRepo, StoredNotification } from './notifications.repo';
import {
  counterSectionOf,
  countersOf,
  emailGroupFor,
  idTimeAfter,
  preferencesOf,
} from './notifications.rules';
import type { NotificationMailer } from './notifications.sender';
import { newEmailKey, signUnsubscribeToken } from './unsubscribe-token';

/**
 * Emitting a notification: THE one way any domain tells a user something (through
 * notifications/index.ts). Idempotent per source event: `eventKey` names the event (a Stripe event
 * id, a workflow's step, an offering and a follower), and the same key never notifies the same
 * user twice, so a retried workflow task or a redelivered webhook is harmless.
 *
 * One transaction writes the notification, the event guard and the unread counters; then the
 * user's open tabs hear `notification.created` with the new counters; then, for what must not be
 * missed and when the user has that group on, an e-mail goes out. A failed e-mail throws (the
 * notification stays, its e-mail `due`): the caller's retry comes back here as a duplicate and
 * sends the e-mail it still owes.
 */
export interface NotifyInput {
  /** The user notified. */
  to: string;
  activity: NotificationActivity;
  /** Names the source event (stable across retries). */
  eventKey: string;
  /** The user who caused it; '' (default) for the marketplace itself. */
  sourceid?: string;
  payload?: NotificationPayload;
}

export interface NotifyResult {
  id: string;
  /** False when the event had notified the user before. */
  created: boolean;
}

export interface NotifyDeps {
  repo: NotificationsRepo;
  /** Publishes on the user's own live channel (failures are the publisher's to log). */
  publish(userId: string, message: ServerMessageDraft): Promise<void>;
  mailer: NotificationMailer;
  /** The user's e-mail address, if they have an account. */
  emailOf(userId: string): Promise<string | undefined>;
  /** Origin of the web app, for the links in e-mails. */
  webOrigin: string;
  appName: string;
  /** Waits before retrying a conflicting write (tests pass a no-op). */
  pause?: (ms: number) => Promise<void>;
}

const MAX_ATTEMPTS = 12;
/** How long a claimed e-mail is held before another attempt may send it. */
export const EMAIL_LEASE_MS = 60_000;
const DAY_S = 24 * 3600;

export function eventHashOf(eventKey: string): string {
  return createHash('sha256').update(eventKey).digest('base64url').slice(0, 32);
}

const defaultPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The answer shape of a stored notification (internal fields left out). */
export function notificationOf(
  stored: StoredNotification,
  read: boolean = stored.read,
): Notification {
  return {
    id: stored.id,
    activity: stored.activity,
    sourceid: stored.sourceid,
    destinationid: stored.destinationid,
    read,
    createdat: stored.createdat,
    type: stored.type,
    access: 'private',
    payload: stored.payload,
    itemmarket: stored.itemmarket,
  };
}

export async function notify(
  deps: NotifyDeps,
  input: NotifyInput,
  now: Date,
): Promise<NotifyResult> {
  if (input.to === '' || input.eventKey === '') {
    throw new RangeError('notify needs a user and an event key');
  }
  const payload = notificationPayloadSchema.parse(input.payload ?? {});
  const section = counterSectionOf(input.activity);
  const eventHash = eventHashOf(input.eventKey);
  const pause = deps.pause ?? defaultPause;

  let state = await deps.repo.getState(input.to);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const group = emailGroupFor(input.activity, preferencesOf(state));
    const watermark = typeof state?.read_before === 'string' ? state.read_before : undefined;
    const createdAt = idTimeAfter(now, watermark);
    const stored: StoredNotification = {
      id: newId(createdAt),
      activity: input.activity,
      sourceid: input.sourceid ?? '',
      destinationid: input.to,
      read: false,
      createdat: createdAt.getTime(),
      type: section,
      access: 'private',
      payload,
      itemmarket: payload.itemmarket ?? null,
      ttl: Math.floor(createdAt.getTime() / 1000) + NOTIFICATION_RETENTION_DAYS * DAY_S,
      ...(group === null ? {} : { email_state: 'due' as const, email_group: group }),
    };
    const outcome = await deps.repo.insert({ notification: stored, eventHash, section });
    if (outcome === 'created') {
      const after = await deps.repo.getState(input.to);
      await deps.publish(input.to, {
        type: 'notification.created',
        notificationId: stored.id,
        counters: countersOf(after),
      });
      if (group !== null) await deliverEmail(deps, stored, after, now);
      return { id: stored.id, created: true };
    }
    if (outcome === 'duplicate') {
      const id = await deps.repo.notifiedBy(input.to, eventHash);
      if (id === undefined) throw new Error('notification event guard without its notification');
      // An earlier attempt may have stopped before its e-mail: send what is still owed.
      const earlier = await deps.repo.getNotification(input.to, id);
      if (earlier !== undefined) await deliverEmail(deps, earlier, state, now);
      return { id, created: false };
    }
    // stale_id (a mark-all moved the watermark) or conflict (a concurrent write): read again.
    if (outcome === 'conflict') await pause(5 + Math.floor(Math.random() * 20 * (attempt + 1)));
    state = await deps.repo.getState(input.to);
  }
  throw new Error(`notify: ${MAX_ATTEMPTS} conflicting attempts for one user`);
}

/** Sends a notification's e-mail if it is still due (claimed first, so it goes out once). */
async function deliverEmail(
  deps: NotifyDeps,
  stored: StoredNotification,
  state: Record<string, unknown> | undefined,
  now: Date,
): Promise<void> {
  const userId = stored.destinationid;
  const notificationId = stored.id;
  if (stored.email_state === undefined || stored.email_state === 'sent') return;
  const group = stored.email_group;
  if (group === undefined) return;
  if (!(await deps.repo.claimEmail(userId, notificationId, now, EMAIL_LEASE_MS))) return;
  try {
    const address = await deps.emailOf(userId);
    if (address === undefined) {
      logger.info('notification e-mail skipped: no address', { userId, notificationId });
      await deps.repo.settleEmail(userId, notificationId, true);
      return;
    }
    const key =
      typeof state?.email_key === 'string'
        ? state.email_key
        : await deps.repo.keepEmailKey(userId, newEmailKey());
    const token = signUnsubscribeToken(key, userId, group);
    const notification = notificationOf(stored);
    const open = notification.itemmarket
      ? `${deps.webOrigin}/market/product/${encodeURIComponent(notification.itemmarket)}`
      : `${deps.webOrigin}/account/settings/general`;
    const email = notificationEmail(
      notification,
      {
        open,
        unsubscribe: `${deps.webOrigin}/unsubscribe?token=${encodeURIComponent(token)}`,
        settings: `${deps.webOrigin}/account/settings/general`,
        appName: deps.appName,
      },
      group,
    );
    await deps.mailer.send({ to: address, email });
    await deps.repo.settleEmail(userId, notificationId, true);
  } catch (error) {
    await deps.repo.settleEmail(userId, notificationId, false).catch(() => undefined);
    throw error;
  }
}

export type { UnreadCounters };
