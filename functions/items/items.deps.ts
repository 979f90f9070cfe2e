import { dynamoDocumentClient, s3Client } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import { readSwitches } from '../../shared/switches';
import { accountsDirectory } from '../accounts/index';
import { createImagesStore } from '../images/index';
import { createProfileStore } from '../profiles/index';
import { publishToUser } from '../realtime/index';
import { createCollectionsRepo, getOwnedCollection } from '../collections/index';
import type { CreateItemDeps } from './create-item';
import { defaultLimits, mintLimitFromEnv, type CreatorLimits } from './items';
import { createItemFilesStore, createItemsRepo, type ItemsRepo } from './items.repo';
import type { QueriesDeps } from './queries';
import type { UploadsDeps } from './uploads';

/** The items calls' real dependencies, from the environment. */
export function itemsRepo(): ItemsRepo {
  const env = readEnv();
  return createItemsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
}

export function creatorLimits(source: NodeJS.ProcessEnv = process.env): CreatorLimits {
  return defaultLimits(readSwitches(source).userLimits, mintLimitFromEnv(source));
}

export function createItemDeps(repo: ItemsRepo = itemsRepo()): CreateItemDeps {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const directory = accountsDirectory();
  const profiles = createProfileStore({ doc, tableName: env.tableName });
  return {
    repo,
    users: {
      userIdByNick: (nick) => directory.userIdByNick(nick),
      nickOf: async (userId) => (await profiles.getProfile(userId))?.nick,
    },
    collections: {
      isOwnedBy: async (ownerId, collectionId) =>
        (await getOwnedCollection(
          {
            repo: createCollectionsRepo({ doc, tableName: env.tableName }),
            imagesBaseUrl: env.imagesBaseUrl,
          },
          ownerId,
          collectionId,
        )) !== undefined,
    },
    async publish(userId, progress) {
      if (env.wsConnectionsEndpoint === undefined) return;
      await publishToUser(userId, { type: 'item.creation', ...progress });
    },
    newId,
    limits: creatorLimits(),
  };
}

export function uploadsDeps(): UploadsDeps {
  const env = readEnv();
  const s3 = s3Client(env);
  const files = createImagesStore({ s3, bucket: env.filesBucket });
  const fileReads = createItemFilesStore({ s3, bucket: env.filesBucket });
  return {
    repo: itemsRepo(),
    images: createImagesStore({ s3, bucket: env.imagesBucket }),
    files: { presignUpload: files.presignUpload, delete: files.delete, head: fileReads.head },
    imagesBaseUrl: env.imagesBaseUrl,
    newId,
  };
}

export function queriesDeps(): QueriesDeps {
  const env = readEnv();
  const directory = accountsDirectory();
  return {
    repo: itemsRepo(),
    users: { userIdByNick: (nick) => directory.userIdByNick(nick) },
    files: createItemFilesStore({ s3: s3Client(env), bucket: env.filesBucket }),
    imagesBaseUrl: env.imagesBaseUrl,
    limits: creatorLimits(),
  };
}
