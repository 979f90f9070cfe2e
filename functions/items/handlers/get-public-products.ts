import { httpHandler } from '../../core/http';
import { itemsUserPathSchema, publicProductsBodySchema } from '../../../shared/schemas/items';
import { queriesDeps } from '../items.deps';
import { getPublicProducts } from '../queries';

/** POST /api/users/{id}/token/getpublicproducts (public: {id} is not used, '-' for guests) */
export const handler = httpHandler(
  { auth: 'public', path: itemsUserPathSchema, body: publicProductsBodySchema },
  async ({ body }) =>
    getPublicProducts(queriesDeps(), {
      nick: body.sourceUserNick,
      last: body.last ?? undefined,
      limit: body.limit,
    }),
);
