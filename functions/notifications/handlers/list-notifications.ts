import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { listNotifications } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** GET /api/notifications/{id} */
export const handler = httpHandler(notificationsRoutes.listNotifications, ({ path, query }) =>
  listNotifications(notificationsDeps(), path.id, query),
);
