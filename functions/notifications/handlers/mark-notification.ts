import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { markNotification } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** PUT /api/notifications/{id}/{notificationId} */
export const handler = httpHandler(notificationsRoutes.markNotification, ({ path, body }) =>
  markNotification(notificationsDeps(), path.id, path.notificationId, body),
);
