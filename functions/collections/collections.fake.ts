import type { StoredImage } from '../images/index';
import { toSummary, type StoredSummary } from '../items/index';
import type { CollectionsDeps } from './collections';
import type { CollectionRecord } from './collections';
import type { CollectionsRepo } from './collections.repo';

interface FakeUpload {
  user_id: string;
  kind: 'image' | 'file';
  status: 'pending' | 'confirmed' | 'used';
  image: StoredImage | null;
}

/**
 * In-memory CollectionsRepo with the DynamoDB repo's semantics: the collection, its name guard
 * (owner + name) and the claim of a confirmed image upload succeed or fail together.
 */
export function fakeCollectionsRepo() {
  const collections = new Map<string, CollectionRecord>();
  const guards = new Set<string>();
  const uploads = new Map<string, FakeUpload>();
  const items = new Map<string, StoredSummary[]>();
  const uploadKey = (ownerId: string, uploadId: string) => `${ownerId}/${uploadId}`;
  const repo: CollectionsRepo = {
    async readImageUpload(ownerId, uploadId) {
      const upload = uploads.get(uploadKey(ownerId, uploadId));
      if (
        upload === undefined ||
        upload.user_id !== ownerId ||
        upload.kind !== 'image' ||
        upload.status !== 'confirmed' ||
        upload.image === null
      ) {
        return undefined;
      }
      return { ...upload.image };
    },
    async create(record) {
      const guard = `${record.owner_id}/${record.name}`;
      if (guards.has(guard)) return 'exists';
      const upload = uploads.get(uploadKey(record.owner_id, record.upload_id));
      if (upload === undefined || upload.status !== 'confirmed' || upload.kind !== 'image') {
        return 'image';
      }
      upload.status = 'used';
      guards.add(guard);
      collections.set(record.id, { ...record });
      return 'created';
    },
    async get(collectionId) {
      const found = collections.get(collectionId);
      return found === undefined ? undefined : { ...found };
    },
    async listByOwner(ownerId) {
      return [...collections.values()]
        .filter((record) => record.owner_id === ownerId)
        .sort((a, b) => (`${a.created_at}#${a.id}` < `${b.created_at}#${b.id}` ? 1 : -1));
    },
    async incrementItemsCount(collectionId, delta) {
      const found = collections.get(collectionId);
      if (found === undefined) return false;
      found.items_count += delta;
      return true;
    },
  };
  /** The items domain's collection list, over the summaries added with addItem. */
  const itemsList: CollectionsDeps['items'] = {
    async page({ collectionId, cursor, limit }) {
      const all = [...(items.get(collectionId) ?? [])].sort((a, b) => (a.id < b.id ? 1 : -1));
      const start = cursor === undefined ? 0 : Number(cursor);
      const next = start + limit;
      return {
        items: all.slice(start, next).map((summary) => toSummary(summary, '/media', null)),
        nextCursor: next < all.length ? String(next) : null,
      };
    },
  };
  return {
    repo,
    items: itemsList,
    collections,
    uploads: {
      confirmed(ownerId: string, uploadId: string, kind: 'image' | 'file' = 'image') {
        uploads.set(uploadKey(ownerId, uploadId), {
          user_id: ownerId,
          kind,
          status: 'confirmed',
          image:
            kind === 'image'
              ? {
                  full: `items/${ownerId}/${uploadId}-1600.webp`,
                  thumb: `items/${ownerId}/${uploadId}-400.webp`,
                }
              : null,
        });
      },
      statusOf: (ownerId: string, uploadId: string) =>
        uploads.get(uploadKey(ownerId, uploadId))?.status,
    },
    addItem(collectionId: string, summary: StoredSummary) {
      items.set(collectionId, [...(items.get(collectionId) ?? []), summary]);
    },
  };
}
