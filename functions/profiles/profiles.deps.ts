import { dynamoDocumentClient, s3Client } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import { accountsDirectory } from '../accounts/index';
import type { ProfilesDeps } from './profiles';
import { createImagesStore } from '../images/index';
import { createProfileStore } from './profiles.repo';

/** The profile calls' real dependencies, from the environment. */
export function profilesDeps(): ProfilesDeps {
  const env = readEnv();
  return {
    store: createProfileStore({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    directory: accountsDirectory(),
    images: createImagesStore({ s3: s3Client(env), bucket: env.imagesBucket }),
    imagesBaseUrl: env.imagesBaseUrl,
    newId,
  };
}
