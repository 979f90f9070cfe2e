import { readEnv } from '../../core/env';
import { httpHandler } from '../../core/http';
import { publicConfig } from '../public-config';

/** GET /api/config */
export const handler = httpHandler({ auth: 'public' }, async () =>
  publicConfig(readEnv(), process.env),
);
