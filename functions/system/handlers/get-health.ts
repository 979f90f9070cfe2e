import { readEnv } from '../../core/env';
import { httpHandler } from '../../core/http';

/** GET /api/health */
export const handler = httpHandler({ auth: 'public' }, async ({ now }) => ({
  status: 'ok' as const,
  stage: readEnv().stage,
  time: now.toISOString(),
}));
