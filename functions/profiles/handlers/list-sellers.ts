import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { httpHandler } from '../../http';
import { profilesRoutes } from '../profiles.routes';
import { createProfilesRepo } from '../profiles.repo';
import { listSellers } from '../list-sellers';

/** GET /api/users/sellers */
export const handler = httpHandler(profilesRoutes.listSellers, async ({ query }) => {
  const env = readEnv();
  const repo = createProfilesRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
  return listSellers({ repo, imagesBaseUrl: env.imagesBaseUrl }, query);
});
