import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { sessionView } from '../sessions';

/** GET /api/session: the spec's "session check"; the middleware's session check ran already. */
export const handler = httpHandler(accountsRoutes.getSession, async ({ auth }) => {
  if (auth === null) throw new Error('auth middleware let a guest through');
  return sessionView(auth);
});
