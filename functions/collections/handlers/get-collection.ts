import { httpHandler } from '../../core/http';
import { collectionPathSchema, collectionPageQuerySchema } from '../../../shared/schemas/items';
import { getCollection } from '../collections';
import { collectionsDeps } from '../collections.deps';

/** GET /api/users/{id|-}/token/getcollection/{collectionId}?cursor= (public) */
export const handler = httpHandler(
  { auth: 'public', path: collectionPathSchema, query: collectionPageQuerySchema },
  async ({ path, query }) =>
    getCollection(collectionsDeps(), { collectionId: path.collectionId, cursor: query.cursor }),
);
