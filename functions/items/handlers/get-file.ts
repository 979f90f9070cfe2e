import { httpHandler } from '../../core/http';
import { itemPathSchema } from '../../../shared/schemas/items';
import { requireCaller } from '../items';
import { queriesDeps } from '../items.deps';
import { getFileLink } from '../queries';

/** GET /api/users/{id}/token/{itemId}/file */
export const handler = httpHandler(
  { auth: 'user', path: itemPathSchema },
  async ({ path, auth, now }) =>
    getFileLink(queriesDeps(), { userId: requireCaller(auth, path.id), itemId: path.itemId }, now),
);
