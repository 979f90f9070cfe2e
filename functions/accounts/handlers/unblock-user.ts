import { httpHandler } from '../../core/http';
import { adminUserPathSchema } from '../../../shared/schemas/sessions';
import { unblockUser } from '../sessions';
import { sessionsDeps } from '../sessions.deps';

/** POST /api/admin/users/{userId}/unblock */
export const handler = httpHandler(
  { auth: 'admin', path: adminUserPathSchema },
  async ({ path, now }) => unblockUser(sessionsDeps(), { userId: path.userId }, now),
);
