import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { getPreferences } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** GET /api/notifications/{id}/preferences */
export const handler = httpHandler(notificationsRoutes.getPreferences, ({ path }) =>
  getPreferences(notificationsDeps(), path.id),
);
