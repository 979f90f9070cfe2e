import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { getUserLimits } from '../queries';

/** GET /api/users/{id}/get-user-limits */
export const handler = httpHandler(itemsRoutes.getUserLimits, async ({ path }) =>
  getUserLimits(queriesDeps(), { userId: path.id }),
);
