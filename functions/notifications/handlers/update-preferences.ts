import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { updatePreferences } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** PUT /api/notifications/{id}/preferences */
export const handler = httpHandler(notificationsRoutes.updatePreferences, ({ path, body }) =>
  updatePreferences(notificationsDeps(), path.id, body),
);
