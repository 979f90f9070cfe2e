import { httpHandler } from '../../http';
import { collectionsRoutes } from '../collections.routes';
import { getCollection } from '../collections';
import { collectionsDeps } from '../collections.deps';

/** GET /api/users/{id|-}/token/getcollection/{collectionId}?cursor= (public) */
export const handler = httpHandler(collectionsRoutes.getCollection, async ({ path, query }) =>
  getCollection(collectionsDeps(), { collectionId: path.collectionId, cursor: query.cursor }),
);
