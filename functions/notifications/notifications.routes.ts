import * as z from 'zod';
import { route } from '../core/route';
import {
  listNotificationsQuerySchema,
  markNotificationAnswerSchema,
  markNotificationSchema,
  notificationPageSchema,
  notificationPreferencesSchema,
  unreadCountersSchema,
  unsubscribeAnswerSchema,
  unsubscribeSchema,
  updatePreferencesSchema,
} from '../../shared/schemas/notifications';

const TAGS = ['notifications'] as const;
const idPart = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'forms.validation.invalid' });
const userPath = z.object({ id: idPart });
const notificationPath = z.object({ id: idPart, notificationId: idPart });

/**
 * The notifications domain's HTTP calls (spec 001 §7 "Notifications"), under /api/notifications.
 * `{id}` is always the caller (`owner: 'id'`: 401 for a guest, 403 for another user), except the
 * unsubscribe link of an e-mail, which works without a session (its token is signed per user).
 */
export const notificationsRoutes = {
  listNotifications: route({
    method: 'GET',
    path: '/api/notifications/{id}',
    handler: 'notifications/handlers/list-notifications',
    auth: 'user',
    group: 'social',
    summary:
      "The caller's notifications, newest first, 10 a page (`cursor` for the next); `section` keeps one section (minter, update, asset, market). The spec's optional /x/y path parts are these query parameters",
    tags: TAGS,
    request: { path: userPath, query: listNotificationsQuerySchema },
    response: notificationPageSchema,
    owner: 'id',
  }),
  unreadCounters: route({
    method: 'GET',
    path: '/api/notifications/{id}/unread',
    handler: 'notifications/handlers/unread-counters',
    auth: 'user',
    group: 'social',
    summary:
      "The caller's unread counters (001 §4: only unread count), in total and per section, maintained on write; the spec's /unread/x (one section) is a field of this answer",
    tags: TAGS,
    request: { path: userPath },
    response: unreadCountersSchema,
    owner: 'id',
  }),
  markAllRead: route({
    method: 'POST',
    path: '/api/notifications/{id}/sidebarmarkallread',
    handler: 'notifications/handlers/mark-all-read',
    auth: 'user',
    group: 'social',
    live: true,
    summary:
      "Mark every notification of the caller read (one write, whatever their number); POST where the spec says GET (it changes state); answers the counters (all 0) and pushes them to the caller's other tabs",
    tags: TAGS,
    request: { path: userPath },
    response: unreadCountersSchema,
    owner: 'id',
  }),
  getPreferences: route({
    method: 'GET',
    path: '/api/notifications/{id}/preferences',
    handler: 'notifications/handlers/get-preferences',
    auth: 'user',
    group: 'social',
    summary:
      "The caller's notification preferences (001 §3): e-mail on or off per group (orders and payments, auctions, offerings, followed sellers); in-app is always on",
    tags: TAGS,
    request: { path: userPath },
    response: notificationPreferencesSchema,
    owner: 'id',
  }),
  updatePreferences: route({
    method: 'PUT',
    path: '/api/notifications/{id}/preferences',
    handler: 'notifications/handlers/update-preferences',
    auth: 'user',
    group: 'social',
    summary:
      'Turn e-mail on or off for any of the groups (the others keep their value); answers the preferences',
    tags: TAGS,
    request: { path: userPath, body: updatePreferencesSchema },
    response: notificationPreferencesSchema,
    owner: 'id',
  }),
  markNotification: route({
    method: 'PUT',
    path: '/api/notifications/{id}/{notificationId}',
    handler: 'notifications/handlers/mark-notification',
    auth: 'user',
    group: 'social',
    live: true,
    summary:
      "Mark one notification read or back to unread (001 §7 {read, activity, mode}); a repeat changes nothing; 404 notifications.errors.not_found; answers it and the counters, pushed to the caller's other tabs",
    tags: TAGS,
    request: { path: notificationPath, body: markNotificationSchema },
    response: markNotificationAnswerSchema,
    owner: 'id',
  }),
  unsubscribe: route({
    method: 'POST',
    path: '/api/notifications/unsubscribe',
    handler: 'notifications/handlers/unsubscribe',
    auth: 'public',
    group: 'social',
    access: { table: 'write' },
    summary:
      "Turn off one e-mail group from an e-mail's link, without a session: the token is signed with the user's own key; 400 notifications.errors.unsubscribe_invalid for a forged, altered or unknown token",
    tags: TAGS,
    request: { body: unsubscribeSchema },
    response: unsubscribeAnswerSchema,
  }),
};
