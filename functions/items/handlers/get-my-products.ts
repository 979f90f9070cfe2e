import { httpHandler } from '../../core/http';
import { itemsUserPathSchema, myProductsBodySchema } from '../../../shared/schemas/items';
import { requireCaller } from '../items';
import { queriesDeps } from '../items.deps';
import { getMyProducts } from '../queries';

/** POST /api/users/{id}/token/getmyproducts */
export const handler = httpHandler(
  { auth: 'user', path: itemsUserPathSchema, body: myProductsBodySchema.optional() },
  async ({ path, body, auth }) =>
    getMyProducts(queriesDeps(), { userId: requireCaller(auth, path.id), body: body ?? {} }),
);
