import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { logout } from '../sessions';
import { sessionsDeps } from '../sessions.deps';

/** POST /api/session/logout */
export const handler = httpHandler(accountsRoutes.logout, async ({ auth, now }) => {
  if (auth === null) throw new Error('auth middleware let a guest through');
  return logout(sessionsDeps(), auth.userId, now);
});
