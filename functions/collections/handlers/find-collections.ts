import { httpHandler } from '../../core/http';
import { userPathSchema } from '../../../shared/schemas/addresses';
import { callerOf, findCollections } from '../collections';
import { collectionsDeps } from '../collections.deps';

/** GET /api/users/{id}/token/findcollections (guests: 401; docs/api.md) */
export const handler = httpHandler({ auth: 'user', path: userPathSchema }, async ({ path, auth }) =>
  findCollections(collectionsDeps(), { ownerId: callerOf(auth, path.id) }),
);
