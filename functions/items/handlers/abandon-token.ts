import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { abandonCreation } from '../create-item';
import { itemsRepo } from '../items.deps';

/** DELETE /api/users/{id}/token/create/{itemId} */
export const handler = httpHandler(itemsRoutes.abandonToken, async ({ path }) =>
  abandonCreation({ repo: itemsRepo() }, { userId: path.id, itemId: path.itemId }),
);
