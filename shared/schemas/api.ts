import * as z from 'zod';
import type { ZodType } from 'zod';
import { healthSchema, publicConfigSchema } from './system';
import {
  followBodySchema,
  followResultSchema,
  isFollowerBodySchema,
  isFollowerResultSchema,
  isFollowingBodySchema,
  isFollowingResultSchema,
} from './follows';
import {
  addressBodySchema,
  addressListSchema,
  addressPathSchema,
  addressSchema,
  deletedAddressSchema,
  userPathSchema,
} from './addresses';
import { listSellersQuerySchema, sellerPageSchema } from './profiles';
import {
  availabilitySchema,
  checkEmailPathSchema,
  checkMobilePathSchema,
  checkNickPathSchema,
  registerBodySchema,
  registeredSchema,
} from './accounts';

/**
 * Request and response schemas of every call, keyed by the route key of functions/routes.ts
 * ("METHOD /path"). GET /api/openapi.json is generated from this map; a test fails when a route
 * has no entry, so the document cannot fall behind the route table.
 */
export interface CallSchemas {
  summary: string;
  tags: string[];
  path?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** Schema of `data` in the 2xx answer. */
  response: ZodType;
  responseStatus?: number;
  /** The answer is the document itself, not `{ data }`. */
  unwrapped?: boolean;
}

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    requestId: z.string(),
  }),
});

export const apiSchemas: Record<string, CallSchemas> = {
  'GET /api/health': { summary: 'Liveness of the API', tags: ['system'], response: healthSchema },
  'GET /api/config': {
    summary: 'Public feature switches and constants the web needs',
    tags: ['system'],
    response: publicConfigSchema,
  },
  'GET /api/openapi.json': {
    summary: 'This document',
    tags: ['system'],
    unwrapped: true,
    response: z.record(z.string(), z.unknown()),
  },
  'GET /api/users/sellers': {
    summary: 'Sellers directory, by followers_counter descending (spec 001 §7 users/sellers)',
    tags: ['profiles'],
    query: listSellersQuerySchema,
    response: sellerPageSchema,
  },
  'POST /api/users/register': {
    summary:
      'Sign-up (spec 001 §7 users/register): nick, e-mail and phone unique (409 names the taken fields); optional Idempotency-Key header',
    tags: ['accounts'],
    body: registerBodySchema,
    response: registeredSchema,
    responseStatus: 201,
  },
  'GET /api/users/check-nickname/{value}': {
    summary: 'Is this nick free? (spec 001 §7 users/check-nickname)',
    tags: ['accounts'],
    path: checkNickPathSchema,
    response: availabilitySchema,
  },
  'GET /api/users/check-email/{value}': {
    summary: 'Is this e-mail free? (spec 001 §7 users/check-email)',
    tags: ['accounts'],
    path: checkEmailPathSchema,
    response: availabilitySchema,
  },
  'GET /api/users/check-mobile/{value}': {
    summary:
      'Is this phone free? Spaces, dashes, brackets, # and x are stripped first (spec 001 §7 users/check-mobile)',
    tags: ['accounts'],
    path: checkMobilePathSchema,
    response: availabilitySchema,
  },
  'POST /api/rels/follow': {
    summary:
      'Follow a user (spec 001 §7 rels/follow): followers_counter + 1 in the same transaction; a second follow changes nothing; 409 follows.errors.self, 404 users.errors.not_found',
    tags: ['follows'],
    body: followBodySchema,
    response: followResultSchema,
  },
  'POST /api/rels/unfollow': {
    summary:
      'Unfollow a user (spec 001 §7 rels/unfollow): followers_counter - 1 (never below 0) in the same transaction; a second unfollow changes nothing',
    tags: ['follows'],
    body: followBodySchema,
    response: followResultSchema,
  },
  'POST /api/rels/check/is-following': {
    summary: 'Does the caller follow `followed`? (spec 001 §7 rels/check/is-following)',
    tags: ['follows'],
    body: isFollowingBodySchema,
    response: isFollowingResultSchema,
  },
  'POST /api/rels/check/is-follower': {
    summary: 'Does `follower` follow the caller? (spec 001 §7 rels/check/is-follower)',
    tags: ['follows'],
    body: isFollowerBodySchema,
    response: isFollowerResultSchema,
  },
  'GET /api/users/{id}/addresses': {
    summary: "The caller's addresses, default first (at most 20); {id} must be the caller (403)",
    tags: ['addresses'],
    path: userPathSchema,
    response: addressListSchema,
  },
  'POST /api/users/{id}/addaddress': {
    summary:
      'Add an address (spec 001 §7 users/{id}/addaddress); the first is the default; at most 20 (400 addresses.errors.limit); {id} must be the caller (403)',
    tags: ['addresses'],
    path: userPathSchema,
    body: addressBodySchema,
    response: addressSchema,
    responseStatus: 201,
  },
  'PUT /api/users/{id}/updateaddress/{addressId}': {
    summary:
      'Replace an address (spec 001 §7 users/{id}/updateaddress); default true moves the default; 404 addresses.errors.not_found',
    tags: ['addresses'],
    path: addressPathSchema,
    body: addressBodySchema,
    response: addressSchema,
  },
  'DELETE /api/users/{id}/deleteaddress/{addressId}': {
    summary:
      'Delete an address (spec 001 §7 users/{id}/deleteaddress); deleting the default makes the most recent one left the default',
    tags: ['addresses'],
    path: addressPathSchema,
    response: deletedAddressSchema,
  },
  'ANY /api/{proxy+}': {
    summary: 'Any other path under /api: 404 not_found',
    tags: ['system'],
    response: z.never(),
    responseStatus: 404,
  },
};
