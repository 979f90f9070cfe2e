import { optionalCaller } from '../../core/access-token';
import { httpHandler } from '../../http';
import { itemsRoutes } from '../items.routes';
import { queriesDeps } from '../items.deps';
import { getProductById } from '../queries';

/**
 * POST /api/users/{id}/token/getproductbyid/{itemId}. A public route: the optional bearer token
 * only tells whether the caller may download the attached file; a missing or bad token is a guest.
 */
export const handler = httpHandler(itemsRoutes.getProductById, async ({ path, event }) =>
  getProductById(queriesDeps(), {
    itemId: path.itemId,
    callerId: await optionalCaller(event.headers),
  }),
);
