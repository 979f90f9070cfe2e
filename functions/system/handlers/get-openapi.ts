import { httpHandler } from '../../http';
import { systemRoutes } from '../system.routes';
import { Reply } from '../../core/http';
import { buildOpenApi } from '../openapi';

let document: Record<string, unknown> | undefined;

/** GET /api/openapi.json: the OpenAPI document itself (not wrapped in `{ data }`). */
export const handler = httpHandler(
  systemRoutes.getOpenapi,
  async () =>
    new Reply(200, (document ??= buildOpenApi()), { 'cache-control': 'public, max-age=300' }, true),
);
