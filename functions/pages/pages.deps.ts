import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { logger } from '../core/logger';
import { accountsDirectory } from '../accounts/index';
import { createItemsRepo, getPublicProducts } from '../items/index';
import { createProfileStore, getProfileByNick } from '../profiles/index';
import type { PagesDeps } from './profile-page';
import { loadRenderer } from './renderer';

/** The page calls' real dependencies: the profile and its items as their own calls read them. */
export function pagesDeps(): PagesDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const directory = accountsDirectory();
  const store = createProfileStore({ doc, tableName: env.tableName });
  const repo = createItemsRepo({ doc, tableName: env.tableName });
  return {
    profile: (nick) =>
      getProfileByNick({ store, directory, imagesBaseUrl: env.imagesBaseUrl }, nick),
    publicItems: (nick) =>
      getPublicProducts(
        { repo, users: directory, imagesBaseUrl: env.imagesBaseUrl },
        { nick, last: undefined, limit: undefined },
      ),
    renderer: () => loadRenderer(),
    webOrigin: env.webOrigin,
    reportFailure: (message, error) =>
      logger.error(message, error instanceof Error ? error : new Error(String(error))),
  };
}
