import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { myProductsBodySchema } from '../../../shared/schemas/items';
import { queriesDeps } from '../items.deps';
import { getMyProducts } from '../queries';

/** POST /api/users/{id}/token/getmyproducts */
export const handler = httpHandler(
  itemsRoutes.getMyProducts,
  async ({ path, body }) => getMyProducts(queriesDeps(), { userId: path.id, body: body ?? {} }),
  // The body may be absent (all holdings); the declaration documents its shape.
  { body: myProductsBodySchema.optional() },
);
