import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { getFileLink } from '../queries';

/** GET /api/users/{id}/token/{itemId}/file */
export const handler = httpHandler(itemsRoutes.getFile, async ({ path, now }) =>
  getFileLink(queriesDeps(), { userId: path.id, itemId: path.itemId }, now),
);
