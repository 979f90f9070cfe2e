import { httpHandler } from '../../core/http';
import { copiesQuerySchema, itemPathSchema } from '../../../shared/schemas/items';
import { queriesDeps } from '../items.deps';
import { listCopies } from '../queries';

/** GET /api/users/{id}/token/{itemId}/copies?cursor= */
export const handler = httpHandler(
  { auth: 'public', path: itemPathSchema, query: copiesQuerySchema },
  async ({ path, query }) =>
    listCopies(queriesDeps(), { itemId: path.itemId, cursor: query.cursor }),
);
