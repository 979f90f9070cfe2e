import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { unreadCounters } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** GET /api/notifications/{id}/unread */
export const handler = httpHandler(notificationsRoutes.unreadCounters, ({ path }) =>
  unreadCounters(notificationsDeps(), path.id),
);
