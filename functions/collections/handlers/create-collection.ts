import { httpHandler } from '../../http';
import { collectionsRoutes } from '../collections.routes';
import { Reply } from '../../core/http';
import { createCollection } from '../collections';
import { collectionsDeps } from '../collections.deps';

/** POST /api/users/{id}/token/createcollection */
export const handler = httpHandler(
  collectionsRoutes.createCollection,
  async ({ path, body, now }) => {
    const ownerId = path.id;
    return new Reply(
      201,
      await createCollection(collectionsDeps(), { ownerId, collection: body.collection }, now),
    );
  },
);
