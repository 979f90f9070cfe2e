import { route } from '../core/route';
import { userPathSchema } from '../../shared/schemas/addresses';
import {
  collectionListSchema,
  collectionPageQuerySchema,
  collectionPageSchema,
  collectionPathSchema,
  collectionSchema,
  createCollectionBodySchema,
} from '../../shared/schemas/items';

/**
 * The collections domain's HTTP calls: THE one list of them (functions/core/route.ts). functions/routes.ts
 * composes every domain's list; OpenAPI is generated from these declarations; each handler passes
 * its declaration to httpHandler.
 */
export const collectionsRoutes = {
  // Collections (spec 000 §3, §5, §7 token/createcollection, findcollections, getcollection).
  createCollection: route({
    method: 'POST',
    path: '/api/users/{id}/token/createcollection',
    handler: 'collections/handlers/create-collection',
    auth: 'user',
    group: 'market',
    summary:
      'Create a collection (spec 000 §7 token/createcollection): image = a confirmed image upload of the caller (store-token-images + confirm), claimed; 409 market.list.errors.collection_exists when the caller already has this title (any case); 400 market.create_product.errors.image_upload on collection.image for a missing, used or foreign upload; {id} must be the caller (403)',
    tags: ['collections'],
    request: { path: userPathSchema, body: createCollectionBodySchema },
    response: collectionSchema,
    status: 201,
    owner: 'id',
  }),
  findCollections: route({
    method: 'GET',
    path: '/api/users/{id}/token/findcollections',
    handler: 'collections/handlers/find-collections',
    auth: 'user',
    group: 'market',
    summary:
      "The caller's collections, newest first (spec 000 §7 token/findcollections); guests 401 (docs/api.md); {id} must be the caller (403)",
    tags: ['collections'],
    request: { path: userPathSchema },
    response: collectionListSchema,
    owner: 'id',
  }),
  getCollection: route({
    method: 'GET',
    path: '/api/users/{id}/token/getcollection/{collectionId}',
    handler: 'collections/handlers/get-collection',
    auth: 'public',
    group: 'market',
    summary:
      'Public: a collection and its items, newest first, 50 per page (?cursor=); {id} may be any id or -; 404 market.collection.errors.not_found',
    tags: ['collections'],
    request: { path: collectionPathSchema, query: collectionPageQuerySchema },
    response: collectionPageSchema,
  }),
} as const;
