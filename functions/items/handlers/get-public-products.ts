import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { getPublicProducts } from '../queries';

/** POST /api/users/{id}/token/getpublicproducts (public: {id} is not used, '-' for guests) */
export const handler = httpHandler(itemsRoutes.getPublicProducts, async ({ body }) =>
  getPublicProducts(queriesDeps(), {
    nick: body.sourceUserNick,
    last: body.last ?? undefined,
    limit: body.limit,
  }),
);
