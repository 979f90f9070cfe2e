import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import { itemsRepo } from '../items/items.deps';
import { listCollectionItems } from '../items/queries';
import { createProfileStore } from '../profiles/profiles.repo';
import type { CollectionsDeps } from './collections';
import { createCollectionsRepo } from './collections.repo';

/**
 * The collections calls' real dependencies. The image upload is read and claimed by the repo's
 * upload-claim adapter (collections.repo.ts, `readClaimableImageUpload` / `claimImageUploadUpdate`)
 * inside the collection's transaction.
 */
export function collectionsDeps(): CollectionsDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const profiles = createProfileStore({ doc, tableName: env.tableName });
  return {
    repo: createCollectionsRepo({ doc, tableName: env.tableName }),
    items: {
      page: (input) =>
        listCollectionItems({ repo: itemsRepo(), imagesBaseUrl: env.imagesBaseUrl }, input),
    },
    users: { nickOf: async (userId) => (await profiles.getProfile(userId))?.nick },
    imagesBaseUrl: env.imagesBaseUrl,
    newId,
  };
}
