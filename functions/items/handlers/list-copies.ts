import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { listCopies } from '../queries';

/** GET /api/users/{id}/token/{itemId}/copies?cursor= */
export const handler = httpHandler(itemsRoutes.listCopies, async ({ path, query }) =>
  listCopies(queriesDeps(), { itemId: path.itemId, cursor: query.cursor }),
);
