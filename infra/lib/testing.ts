import type { HttpRoute } from '../../functions/routes';

/** For the CDK tests that synthesize a small app: the health call, the one route every app has. */
export const HEALTH_ROUTE: HttpRoute = {
  method: 'GET',
  path: '/api/health',
  handler: 'system/handlers/get-health',
  auth: 'public',
  group: 'core',
};
