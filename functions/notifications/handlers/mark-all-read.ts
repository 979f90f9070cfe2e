import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { markAllRead } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** POST /api/notifications/{id}/sidebarmarkallread */
export const handler = httpHandler(notificationsRoutes.markAllRead, ({ path, now }) =>
  markAllRead(notificationsDeps(), path.id, now),
);
