import type { CreationRepo, ReserveOutcome } from './items.repo';
import type {
  CopyRecord,
  CreatorLimits,
  HoldingRecord,
  ItemRecord,
  LimitsRecord,
  UploadRecord,
} from './items';
import type { ProvenanceRecord } from './provenance';

/**
 * An in-memory CreationRepo with the same conditions as the DynamoDB one (transactions are
 * all-or-nothing), for the create use case's unit tests.
 */
export interface FakeCreationRepo extends CreationRepo {
  uploads: Map<string, UploadRecord>;
  items: Map<string, ItemRecord>;
  idempotency: Map<string, { item_id: string; fingerprint: string }>;
  limits: Map<string, LimitsRecord>;
  copies: Map<string, CopyRecord>;
  history: Map<string, ProvenanceRecord>;
  holdings: Map<string, HoldingRecord>;
  /** Number of writeCopies calls that reached the store. */
  batches: number;
}

const clone = <T>(value: T): T => structuredClone(value);

export function createFakeCreationRepo(): FakeCreationRepo {
  const repo: FakeCreationRepo = {
    uploads: new Map(),
    items: new Map(),
    idempotency: new Map(),
    limits: new Map(),
    copies: new Map(),
    history: new Map(),
    holdings: new Map(),
    batches: 0,

    async getUpload(userId, uploadId) {
      const found = repo.uploads.get(`${userId}/${uploadId}`);
      return found === undefined ? undefined : clone(found);
    },
    async getIdempotency(userId, key) {
      const found = repo.idempotency.get(`${userId}/${key}`);
      return found === undefined ? undefined : clone(found);
    },
    async getItem(itemId) {
      const found = repo.items.get(itemId);
      return found === undefined ? undefined : clone(found);
    },
    async reserve(item: ItemRecord, limits: CreatorLimits | null): Promise<ReserveOutcome> {
      if (repo.items.has(item.id)) return 'duplicate';
      if (repo.idempotency.has(`${item.creator_id}/${item.idempotency_key}`)) return 'duplicate';
      const bytes = item.image_bytes + item.file_bytes;
      const current = repo.limits.get(item.creator_id) ?? {
        mints_used: 0,
        bytes_used: 0,
        image_bytes: 0,
        file_bytes: 0,
      };
      if (
        limits !== null &&
        (current.mints_used >= limits.maxMints || current.bytes_used + bytes > limits.capacity)
      ) {
        return 'limit';
      }
      for (const id of item.upload_ids) {
        if (repo.uploads.get(`${item.creator_id}/${id}`)?.status !== 'confirmed') {
          return { upload: id };
        }
      }
      repo.items.set(item.id, clone(item));
      repo.idempotency.set(`${item.creator_id}/${item.idempotency_key}`, {
        item_id: item.id,
        fingerprint: item.fingerprint,
      });
      repo.limits.set(item.creator_id, {
        mints_used: current.mints_used + 1,
        bytes_used: current.bytes_used + bytes,
        image_bytes: current.image_bytes + item.image_bytes,
        file_bytes: current.file_bytes + item.file_bytes,
      });
      for (const id of item.upload_ids) {
        const upload = repo.uploads.get(`${item.creator_id}/${id}`) as UploadRecord;
        repo.uploads.set(`${item.creator_id}/${id}`, {
          ...upload,
          status: 'used',
          item_id: item.id,
        });
      }
      return 'reserved';
    },
    async writeCopies(copies, history) {
      repo.batches += 1;
      for (const copy of copies) repo.copies.set(copy.nftuniqueid, clone(copy));
      for (const record of history) {
        repo.history.set(`${record.nftuniqueid}/${record.seq}`, clone(record));
      }
    },
    async saveProgress(itemId, version, state) {
      const item = repo.items.get(itemId);
      if (item === undefined || item.version !== version) return false;
      repo.items.set(itemId, { ...item, ...state, version: version + 1 });
      return true;
    },
    async finalize(item, version, holding) {
      const current = repo.items.get(item.id);
      if (current === undefined || current.version !== version) return false;
      repo.items.set(item.id, {
        ...current,
        status: 'done',
        written: current.total,
        error: null,
        version: version + 1,
      });
      repo.holdings.set(`${holding.owner_id}/${holding.item_id}`, clone(holding));
      return true;
    },
    async abandon(item) {
      const current = repo.items.get(item.id);
      if (current === undefined || current.status === 'done') return false;
      for (const key of [...repo.copies.keys()]) {
        if (key.startsWith(`${item.id}-`)) repo.copies.delete(key);
      }
      for (const key of [...repo.history.keys()]) {
        if (key.startsWith(`${item.id}-`)) repo.history.delete(key);
      }
      repo.items.delete(item.id);
      repo.idempotency.delete(`${item.creator_id}/${item.idempotency_key}`);
      const limits = repo.limits.get(item.creator_id);
      if (limits !== undefined) {
        repo.limits.set(item.creator_id, {
          mints_used: limits.mints_used - 1,
          bytes_used: limits.bytes_used - item.image_bytes - item.file_bytes,
          image_bytes: limits.image_bytes - item.image_bytes,
          file_bytes: limits.file_bytes - item.file_bytes,
        });
      }
      for (const id of item.upload_ids) {
        const upload = repo.uploads.get(`${item.creator_id}/${id}`);
        if (upload !== undefined) {
          repo.uploads.set(`${item.creator_id}/${id}`, {
            ...upload,
            status: 'confirmed',
            item_id: null,
          });
        }
      }
      return true;
    },
  };
  return repo;
}

/** A confirmed image upload of a user, as the confirm call leaves it. */
export function confirmedImage(userId: string, uploadId: string, bytes = 1000): UploadRecord {
  return {
    upload_id: uploadId,
    user_id: userId,
    kind: 'image',
    status: 'confirmed',
    content_type: 'image/png',
    name: null,
    source_key: `uploads/${userId}/${uploadId}`,
    bytes,
    image: {
      full: `items/${userId}/${uploadId}-1600.webp`,
      thumb: `items/${userId}/${uploadId}-400.webp`,
    },
    file: null,
    item_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

/** Wraps a repo so that the k-th writeCopies call (1-based) throws, once. */
export function failingOnBatch<R extends CreationRepo>(repo: R, k: number): R {
  let calls = 0;
  return {
    ...repo,
    getUpload: repo.getUpload.bind(repo),
    getIdempotency: repo.getIdempotency.bind(repo),
    getItem: repo.getItem.bind(repo),
    reserve: repo.reserve.bind(repo),
    saveProgress: repo.saveProgress.bind(repo),
    finalize: repo.finalize.bind(repo),
    abandon: repo.abandon.bind(repo),
    async writeCopies(copies, history) {
      calls += 1;
      if (calls === k) throw new Error(`injected failure at batch ${k}`);
      return repo.writeCopies(copies, history);
    },
  };
}
