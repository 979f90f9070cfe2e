/**
 * What each function may touch. The route table does not (yet) say which data a call needs, so the
 * grants follow from the kind of call, narrowest first:
 * - the catch-all (`ANY /api/{proxy+}`) answers 404 and touches nothing;
 * - GET calls read the table (Query/GetItem only: no Scan, no writes);
 * - other calls write the table and may hand out presigned uploads (images: write; attached
 *   files: read and write);
 * - WebSocket handlers keep connection and subscription items (table write);
 * - workflow tasks load and write state (table write).
 */
import type { HttpRoute } from '../../functions/routes';
import type { BucketAccess, TableAccess } from './constructs/market-function';

export interface DataAccess {
  table?: TableAccess;
  images?: BucketAccess;
  files?: BucketAccess;
}

function methodAccess(method: HttpRoute['method']): DataAccess {
  switch (method) {
    case 'ANY':
      return {};
    case 'GET':
      return { table: 'read' };
    default:
      return { table: 'write', images: 'write', files: 'readwrite' };
  }
}

/** The method's default access, with the route's own `access` (functions/routes.ts) over it. */
export function httpRouteAccess(route: Pick<HttpRoute, 'method' | 'access'>): DataAccess {
  return { ...methodAccess(route.method), ...route.access };
}

export const WEBSOCKET_ACCESS: DataAccess = { table: 'write' };

export const WORKFLOW_TASK_ACCESS: DataAccess = { table: 'write' };
