import { httpHandler } from '../../http';
import { notificationsRoutes } from '../notifications.routes';
import { unsubscribe } from '../notifications';
import { notificationsDeps } from '../notifications.deps';

/** POST /api/notifications/unsubscribe (no session: the token is signed per user) */
export const handler = httpHandler(notificationsRoutes.unsubscribe, ({ body }) =>
  unsubscribe(notificationsDeps(), body.token),
);
