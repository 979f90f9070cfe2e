import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { httpHandler } from '../../core/http';
import { listSellersQuerySchema } from '../../../shared/schemas/profiles';
import { createProfilesRepo } from '../profiles.repo';
import { listSellers } from '../list-sellers';

/** GET /api/users/sellers */
export const handler = httpHandler(
  { auth: 'public', query: listSellersQuerySchema },
  async ({ query }) => {
    const env = readEnv();
    const repo = createProfilesRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
    return listSellers({ repo, imagesBaseUrl: env.imagesBaseUrl }, query);
  },
);
