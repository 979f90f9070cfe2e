import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import {
  claimImageUploadUpdate,
  createItemsRepo,
  listCollectionItems,
  readClaimableImageUpload,
} from '../items/index';
import { createProfileStore } from '../profiles/index';
import type { CollectionsDeps } from './collections';
import { createCollectionsRepo } from './collections.repo';

/**
 * The collections calls' real dependencies (composition: the one collections file that imports
 * items). The image upload is read and claimed through items' transaction pieces (items.tx.ts)
 * inside the collection's transaction; a collection's items come from items' listCollectionItems.
 */
export function collectionsDeps(): CollectionsDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const profiles = createProfileStore({ doc, tableName: env.tableName });
  return {
    repo: createCollectionsRepo({
      doc,
      tableName: env.tableName,
      uploads: { read: readClaimableImageUpload, claimUpdate: claimImageUploadUpdate },
    }),
    items: {
      page: (input) =>
        listCollectionItems(
          {
            repo: createItemsRepo({ doc, tableName: env.tableName }),
            imagesBaseUrl: env.imagesBaseUrl,
          },
          input,
        ),
    },
    users: { nickOf: async (userId) => (await profiles.getProfile(userId))?.nick },
    imagesBaseUrl: env.imagesBaseUrl,
    newId,
  };
}
