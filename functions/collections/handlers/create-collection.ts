import { httpHandler, Reply } from '../../core/http';
import { userPathSchema } from '../../../shared/schemas/addresses';
import { createCollectionBodySchema } from '../../../shared/schemas/items';
import { callerOf, createCollection } from '../collections';
import { collectionsDeps } from '../collections.deps';

/** POST /api/users/{id}/token/createcollection */
export const handler = httpHandler(
  { auth: 'user', path: userPathSchema, body: createCollectionBodySchema },
  async ({ path, body, auth, now }) => {
    const ownerId = callerOf(auth, path.id);
    return new Reply(
      201,
      await createCollection(collectionsDeps(), { ownerId, collection: body.collection }, now),
    );
  },
);
