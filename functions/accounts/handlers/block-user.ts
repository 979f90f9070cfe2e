import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { blockUser } from '../sessions';
import { sessionsDeps } from '../sessions.deps';

/** POST /api/admin/users/{userId}/block */
export const handler = httpHandler(accountsRoutes.blockUser, async ({ auth, path, now }) => {
  if (auth === null) throw new Error('auth middleware let a guest through');
  return blockUser(sessionsDeps(), { adminId: auth.userId, userId: path.userId }, now);
});
