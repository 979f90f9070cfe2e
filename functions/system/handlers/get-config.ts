import { readEnv } from '../../core/env';
import { httpHandler } from '../../http';
import { systemRoutes } from '../system.routes';
import { publicConfig } from '../public-config';

/** GET /api/config */
export const handler = httpHandler(systemRoutes.getConfig, async () =>
  publicConfig(readEnv(), process.env),
);
