import * as z from 'zod';
import { route } from '../core/route';
import { healthSchema, publicConfigSchema } from '../../shared/schemas/system';

/**
 * The system domain's HTTP calls: THE one list of them (functions/core/route.ts). functions/routes.ts
 * composes every domain's list; OpenAPI is generated from these declarations; each handler passes
 * its declaration to httpHandler.
 */
export const systemRoutes = {
  getHealth: route({
    method: 'GET',
    path: '/api/health',
    handler: 'system/handlers/get-health',
    auth: 'public',
    group: 'core',
    summary: 'Liveness of the API',
    tags: ['system'],
    response: healthSchema,
  }),
  getConfig: route({
    method: 'GET',
    path: '/api/config',
    handler: 'system/handlers/get-config',
    auth: 'public',
    group: 'core',
    summary: 'Public feature switches and constants the web needs',
    tags: ['system'],
    response: publicConfigSchema,
  }),
  getOpenapi: route({
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'system/handlers/get-openapi',
    auth: 'public',
    group: 'core',
    summary: 'This document',
    tags: ['system'],
    response: z.record(z.string(), z.unknown()),
    unwrapped: true,
  }),
  /**
   * Catch-all: any other /api path answers 404 `not_found` as JSON, in AWS and on the twin alike.
   * API Gateway and the local gateway both prefer every more specific route over a greedy one.
   */
  notFound: route({
    method: 'ANY',
    path: '/api/{proxy+}',
    handler: 'system/handlers/not-found',
    auth: 'public',
    group: 'core',
    summary: 'Any other path under /api: 404 not_found',
    tags: ['system'],
    response: z.never(),
    status: 404,
  }),
} as const;
