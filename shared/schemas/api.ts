import * as z from 'zod';
import type { ZodType } from 'zod';
import { healthSchema, publicConfigSchema } from './system';
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
  'ANY /api/{proxy+}': {
    summary: 'Any other path under /api: 404 not_found',
    tags: ['system'],
    response: z.never(),
    responseStatus: 404,
  },
};
