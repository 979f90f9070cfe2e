import { route } from '../core/route';
import {
  followBodySchema,
  followResultSchema,
  isFollowerBodySchema,
  isFollowerResultSchema,
  isFollowingBodySchema,
  isFollowingResultSchema,
} from '../../shared/schemas/follows';

/**
 * The follows domain's HTTP calls: THE one list of them (functions/core/route.ts). functions/routes.ts
 * composes every domain's list; OpenAPI is generated from these declarations; each handler passes
 * its declaration to httpHandler.
 */
export const followsRoutes = {
  follow: route({
    method: 'POST',
    path: '/api/rels/follow',
    handler: 'follows/handlers/follow',
    auth: 'user',
    group: 'social',
    summary:
      'Follow a user (spec 001 §7 rels/follow): followers_counter + 1 in the same transaction; a second follow changes nothing; 409 follows.errors.self, 404 users.errors.not_found',
    tags: ['follows'],
    request: { body: followBodySchema },
    response: followResultSchema,
  }),
  unfollow: route({
    method: 'POST',
    path: '/api/rels/unfollow',
    handler: 'follows/handlers/unfollow',
    auth: 'user',
    group: 'social',
    summary:
      'Unfollow a user (spec 001 §7 rels/unfollow): followers_counter - 1 (never below 0) in the same transaction; a second unfollow changes nothing',
    tags: ['follows'],
    request: { body: followBodySchema },
    response: followResultSchema,
  }),
  isFollowing: route({
    method: 'POST',
    path: '/api/rels/check/is-following',
    handler: 'follows/handlers/is-following',
    auth: 'user',
    group: 'social',
    summary: 'Does the caller follow `followed`? (spec 001 §7 rels/check/is-following)',
    tags: ['follows'],
    request: { body: isFollowingBodySchema },
    response: isFollowingResultSchema,
  }),
  isFollower: route({
    method: 'POST',
    path: '/api/rels/check/is-follower',
    handler: 'follows/handlers/is-follower',
    auth: 'user',
    group: 'social',
    summary: 'Does `follower` follow the caller? (spec 001 §7 rels/check/is-follower)',
    tags: ['follows'],
    request: { body: isFollowerBodySchema },
    response: isFollowerResultSchema,
  }),
} as const;
