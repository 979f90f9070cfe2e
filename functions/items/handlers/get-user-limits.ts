import { httpHandler } from '../../core/http';
import { itemsUserPathSchema } from '../../../shared/schemas/items';
import { requireCaller } from '../items';
import { queriesDeps } from '../items.deps';
import { getUserLimits } from '../queries';

/** GET /api/users/{id}/get-user-limits */
export const handler = httpHandler(
  { auth: 'user', path: itemsUserPathSchema },
  async ({ path, auth }) => getUserLimits(queriesDeps(), { userId: requireCaller(auth, path.id) }),
);
