import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { createFollowsRepo, type FollowsRepo } from './follows.repo';

export function followsRepo(): FollowsRepo {
  const env = readEnv();
  return createFollowsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
}
