import { readEnv } from '../../core/env';
import { httpHandler } from '../../http';
import { systemRoutes } from '../system.routes';

/** GET /api/health */
export const handler = httpHandler(systemRoutes.getHealth, async ({ now }) => ({
  status: 'ok' as const,
  stage: readEnv().stage,
  time: now.toISOString(),
}));
