import { httpHandler } from '../../core/http';
import { logout } from '../sessions';
import { sessionsDeps } from '../sessions.deps';

/** POST /api/session/logout */
export const handler = httpHandler({ auth: 'user' }, async ({ auth, now }) => {
  if (auth === null) throw new Error('auth middleware let a guest through');
  return logout(sessionsDeps(), auth.userId, now);
});
