import { httpHandler } from '../../http';
import { collectionsRoutes } from '../collections.routes';
import { findCollections } from '../collections';
import { collectionsDeps } from '../collections.deps';

/** GET /api/users/{id}/token/findcollections (guests: 401; docs/api.md) */
export const handler = httpHandler(collectionsRoutes.findCollections, async ({ path }) =>
  findCollections(collectionsDeps(), { ownerId: path.id }),
);
