import { httpHandler } from '../../http';
import { accountsRoutes } from '../accounts.routes';
import { unblockUser } from '../sessions';
import { sessionsDeps } from '../sessions.deps';

/** POST /api/admin/users/{userId}/unblock */
export const handler = httpHandler(accountsRoutes.unblockUser, async ({ path, now }) =>
  unblockUser(sessionsDeps(), { userId: path.userId }, now),
);
