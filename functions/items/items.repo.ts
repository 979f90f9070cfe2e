import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { itemsCountUpdate } from '../collections/index';
import { decodeCursor, encodeCursor } from '../core/cursor';
import { idempotencyRecordPut } from '../core/idempotency';
import { batchWriteAll, cancellationReasons, isConditionalCheckFailed } from '../core/dynamo';
import { DomainError } from '../core/errors';
import {
  COPY_PREFIX,
  COPY_TYPE,
  HISTORY_TYPE,
  HOLDING_PREFIX,
  HOLDING_TYPE,
  ITEM_TYPE,
  LIMITS_TYPE,
  UPLOAD_TYPE,
  collectionItemsIndexKeys,
  collectionItemsPartition,
  copyKey,
  createIdempotencyKey,
  createIdempotencyScope,
  historyKey,
  historyPartition,
  holdingKey,
  itemKey,
  limitsKey,
  mintsIndexKeys,
  mintsPartition,
  publicIndexKeys,
  publicPartition,
  uploadKey,
} from './items.keys';
import {
  UPLOAD_TTL_SECONDS,
  type CopyRecord,
  type CreatorLimits,
  type HoldingRecord,
  type ItemRecord,
  type LimitsRecord,
  type StoredImage,
  type UploadRecord,
} from './items';
import type { CreationState } from './creation.machine';
import type { ProvenanceRecord } from './provenance';

/**
 * The items domain's only DynamoDB caller. The creation writes (reserve, copy batches, progress,
 * finalise, abandon) are the `CreationRepo` the create use case needs (an in-memory fake in
 * items.fake.ts); the reads of the lists and pages complete `ItemsRepo`.
 */
export type ReserveOutcome = 'reserved' | 'limit' | 'duplicate' | { upload: string };

export interface CreationRepo {
  getUpload(userId: string, uploadId: string): Promise<UploadRecord | undefined>;
  getIdempotency(
    userId: string,
    key: string,
  ): Promise<{ item_id: string; fingerprint: string } | undefined>;
  getItem(itemId: string): Promise<ItemRecord | undefined>;
  /**
   * One transaction: the item header (attribute_not_exists), the idempotency record, the
   * creator's limits (conditioned when `limits` is given) and each upload marked used
   * (conditioned on confirmed).
   */
  reserve(item: ItemRecord, limits: CreatorLimits | null): Promise<ReserveOutcome>;
  /** Plain puts of deterministic content: a replayed batch rewrites the same bytes. */
  writeCopies(copies: CopyRecord[], history: ProvenanceRecord[]): Promise<void>;
  /** The creation state, conditioned on the version read; false when another attempt moved it. */
  saveProgress(itemId: string, version: number, state: CreationState): Promise<boolean>;
  /** One transaction: the item done with its index keys, and the creator's holding. */
  finalize(item: ItemRecord, version: number, holding: HoldingRecord): Promise<boolean>;
  /** Deletes copies, history, header and idempotency record; releases limits and uploads. */
  abandon(item: ItemRecord): Promise<boolean>;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface ItemsRepo extends CreationRepo {
  putUpload(upload: UploadRecord, ttlFrom: Date): Promise<void>;
  getLimits(userId: string): Promise<LimitsRecord>;
  listMints(
    creatorId: string,
    cursor: string | undefined,
    limit: number,
    productType?: string,
  ): Promise<Page<ItemRecord>>;
  listHoldings(
    ownerId: string,
    cursor: string | undefined,
    limit: number,
    productType?: string,
  ): Promise<Page<HoldingRecord>>;
  listPublicHoldings(
    ownerId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<HoldingRecord>>;
  /** Finalised items of a collection, newest first (gsi3). */
  listCollectionItems(
    collectionId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<ItemRecord>>;
  getHolding(ownerId: string, itemId: string): Promise<HoldingRecord | undefined>;
  setVisibility(ownerId: string, itemId: string, visible: boolean): Promise<boolean>;
  listCopies(itemId: string, cursor: string | undefined, limit: number): Promise<Page<CopyRecord>>;
  getCopy(itemId: string, serial: number): Promise<CopyRecord | undefined>;
  /**
   * A copy taken for an offering: `available` and owned by `ownerId` → `blocked` with the
   * offering's id. True when it is (now, or already) the offering's; false when it is not free.
   */
  lockCopy(itemId: string, serial: number, ownerId: string, offeringId: string): Promise<boolean>;
  /** The offering's copy back to `available` (only while it is blocked for that offering). */
  unlockCopy(itemId: string, serial: number, offeringId: string, now?: string): Promise<boolean>;
  getHistory(nftuniqueid: string): Promise<ProvenanceRecord[]>;
  /** A copy's newest provenance record (strongly consistent). */
  lastHistory(nftuniqueid: string): Promise<ProvenanceRecord | undefined>;
}

const strip = <T>(raw: Record<string, unknown>): T => {
  const {
    pk: _pk,
    sk: _sk,
    type: _type,
    ttl: _ttl,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _e,
    gsi3sk: _f,
    ...rest
  } = raw;
  return rest as T;
};

const ttlOf = (from: Date) => Math.floor(from.getTime() / 1000) + UPLOAD_TTL_SECONDS;

export function createItemsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): ItemsRepo {
  const { doc, tableName } = deps;
  const TableName = tableName;

  async function get<T>(key: { pk: string; sk: string }): Promise<T | undefined> {
    const result = await doc.send(new GetCommand({ TableName, Key: key, ConsistentRead: true }));
    return result.Item === undefined ? undefined : strip<T>(result.Item);
  }

  async function queryPage<T>(
    scope: string,
    input: {
      index?: 'gsi1' | 'gsi2' | 'gsi3';
      pkName: string;
      pk: string;
      skPrefix?: string;
      forward: boolean;
      cursor: string | undefined;
      limit: number;
      filter?: { name: string; value: string };
    },
  ): Promise<Page<T>> {
    const keyAttributes =
      input.index === undefined
        ? ['pk', 'sk']
        : ['pk', 'sk', `${input.index}pk`, `${input.index}sk`];
    const start = decodeCursor(scope, input.cursor, keyAttributes);
    // A cursor of the same list kind but another partition (another user's, another collection's)
    // is refused like any malformed one.
    if (start !== undefined && start[input.pkName] !== input.pk) {
      throw new DomainError('invalid_request', {
        message: 'The cursor is not valid for this list.',
        fields: { cursor: 'forms.validation.cursor' },
      });
    }
    const skName = input.index === undefined ? 'sk' : `${input.index}sk`;
    // A filter (product type) is applied after DynamoDB reads a page, so one Query can match
    // fewer than `limit`: read on until the page is full or the partition ends, then point the
    // cursor at the last item answered (not at the last one read).
    const kept: Record<string, unknown>[] = [];
    let from = start;
    for (;;) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          ...(input.index === undefined ? {} : { IndexName: input.index }),
          KeyConditionExpression:
            input.skPrefix === undefined ? '#pk = :pk' : '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: {
            '#pk': input.pkName,
            ...(input.skPrefix === undefined ? {} : { '#sk': skName }),
            ...(input.filter === undefined ? {} : { '#f': input.filter.name }),
          },
          ExpressionAttributeValues: {
            ':pk': input.pk,
            ...(input.skPrefix === undefined ? {} : { ':prefix': input.skPrefix }),
            ...(input.filter === undefined ? {} : { ':f': input.filter.value }),
          },
          ...(input.filter === undefined ? {} : { FilterExpression: '#f = :f' }),
          ScanIndexForward: input.forward,
          // The table's own lists (copies, holdings) are read strongly consistent: bookings and
          // sales decide on them. Indexes cannot be.
          ...(input.index === undefined ? { ConsistentRead: true } : {}),
          // One more than asked tells whether a next page exists.
          Limit: input.limit + 1 - kept.length,
          ...(from === undefined ? {} : { ExclusiveStartKey: from }),
        }),
      );
      kept.push(...(result.Items ?? []));
      from = result.LastEvaluatedKey;
      if (kept.length > input.limit || from === undefined) break;
    }
    const items = kept.slice(0, input.limit);
    const last = items.at(-1);
    const more = kept.length > input.limit;
    return {
      items: items.map((raw) => strip<T>(raw)),
      next:
        more && last !== undefined
          ? encodeCursor(scope, Object.fromEntries(keyAttributes.map((name) => [name, last[name]])))
          : null,
    };
  }

  async function deleteAll(keys: { pk: string; sk: string }[]): Promise<void> {
    await batchWriteAll(
      doc,
      TableName,
      keys.map((Key) => ({ DeleteRequest: { Key } })),
    );
  }

  return {
    getUpload: (userId, uploadId) => get<UploadRecord>(uploadKey(userId, uploadId)),

    async putUpload(upload, ttlFrom) {
      await doc.send(
        new PutCommand({
          TableName,
          Item: {
            ...uploadKey(upload.user_id, upload.upload_id),
            type: UPLOAD_TYPE,
            ...upload,
            ttl: ttlOf(ttlFrom),
          },
        }),
      );
    },

    getIdempotency: (userId, key) =>
      get<{ item_id: string; fingerprint: string }>(createIdempotencyKey(userId, key)),

    getItem: (itemId) => get<ItemRecord>(itemKey(itemId)),

    async reserve(item, limits) {
      const bytes = item.image_bytes + item.file_bytes;
      if (limits !== null && bytes > limits.capacity) return 'limit';
      const limitsUpdate = {
        TableName,
        Key: limitsKey(item.creator_id),
        UpdateExpression:
          'SET #type = :type, mints_used = if_not_exists(mints_used, :zero) + :one, bytes_used = if_not_exists(bytes_used, :zero) + :bytes, image_bytes = if_not_exists(image_bytes, :zero) + :images, file_bytes = if_not_exists(file_bytes, :zero) + :files',
        ...(limits === null
          ? {}
          : {
              ConditionExpression:
                '(attribute_not_exists(mints_used) OR mints_used < :max) AND (attribute_not_exists(bytes_used) OR bytes_used <= :room)',
            }),
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': LIMITS_TYPE,
          ':zero': 0,
          ':one': 1,
          ':bytes': bytes,
          ':images': item.image_bytes,
          ':files': item.file_bytes,
          ...(limits === null ? {} : { ':max': limits.maxMints, ':room': limits.capacity - bytes }),
        },
      };
      const transactItems = [
        {
          Put: {
            TableName,
            Item: { ...itemKey(item.id), type: ITEM_TYPE, ...item },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        idempotencyRecordPut(TableName, {
          scope: createIdempotencyScope(item.creator_id),
          key: item.idempotency_key,
          fingerprint: item.fingerprint,
          fields: { item_id: item.id },
        }),
        { Update: limitsUpdate },
        ...item.upload_ids.map((uploadId) => ({
          Update: {
            TableName,
            Key: uploadKey(item.creator_id, uploadId),
            UpdateExpression: 'SET #status = :used, item_id = :item REMOVE #ttl',
            ConditionExpression: '#status = :confirmed',
            ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
            ExpressionAttributeValues: {
              ':used': 'used',
              ':confirmed': 'confirmed',
              ':item': item.id,
            },
          },
        })),
      ];
      for (let attempt = 0; ; attempt += 1) {
        try {
          await doc.send(new TransactWriteCommand({ TransactItems: transactItems as never }));
          return 'reserved';
        } catch (error) {
          const reasons = cancellationReasons(error);
          if (reasons === undefined) throw error;
          const failed = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';
          if (failed(1)) return 'duplicate';
          if (failed(2)) return 'limit';
          const upload = item.upload_ids.findIndex((_, index) => failed(3 + index));
          if (upload >= 0) return { upload: item.upload_ids[upload] as string };
          if (failed(0)) return 'duplicate';
          // TransactionConflict with a concurrent creation: try again until the conditions decide.
          if (attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
        }
      }
    },

    async writeCopies(copies, history) {
      const items = [
        ...copies.map((copy) => ({
          Put: {
            TableName,
            Item: { ...copyKey(copy.item_id, copy.serial), type: COPY_TYPE, ...copy },
          },
        })),
        ...history.map((record) => ({
          Put: {
            TableName,
            Item: { ...historyKey(record.nftuniqueid, record.seq), type: HISTORY_TYPE, ...record },
          },
        })),
      ];
      if (items.length === 0) return;
      await doc.send(new TransactWriteCommand({ TransactItems: items }));
    },

    async saveProgress(itemId, version, state) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: itemKey(itemId),
            UpdateExpression:
              'SET #status = :status, written = :written, #error = :error, version = :next',
            ConditionExpression: 'version = :version',
            ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
            ExpressionAttributeValues: {
              ':status': state.status,
              ':written': state.written,
              ':error': state.error,
              ':next': version + 1,
              ':version': version,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async finalize(item, version, holding) {
      const mints = mintsIndexKeys(item.creator_id, item.created_at, item.id);
      const collection =
        item.collection_id === null
          ? undefined
          : collectionItemsIndexKeys(item.collection_id, item.id);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName,
                  Key: itemKey(item.id),
                  UpdateExpression: `SET #status = :done, written = :written, #error = :null, version = :next, gsi1pk = :g1pk, gsi1sk = :g1sk${collection === undefined ? '' : ', gsi3pk = :g3pk, gsi3sk = :g3sk'}`,
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
                  ExpressionAttributeValues: {
                    ':done': 'done',
                    ':written': item.total,
                    ':null': null,
                    ':next': version + 1,
                    ':version': version,
                    ':g1pk': mints.gsi1pk,
                    ':g1sk': mints.gsi1sk,
                    ...(collection === undefined
                      ? {}
                      : { ':g3pk': collection.gsi3pk, ':g3sk': collection.gsi3sk }),
                  },
                },
              },
              {
                Put: {
                  TableName,
                  Item: {
                    ...holdingKey(holding.owner_id, holding.item_id),
                    type: HOLDING_TYPE,
                    ...holding,
                    product_type: holding.summary.product_type,
                    ...(holding.visible ? publicIndexKeys(holding.owner_id, holding.item_id) : {}),
                  },
                },
              },
              // The collection's items_count moves with its list (gsi3 keys above).
              ...(item.collection_id === null
                ? []
                : [{ Update: itemsCountUpdate(TableName, item.collection_id, 1) }]),
            ],
          }),
        );
        return true;
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
        throw error;
      }
    },

    async abandon(item) {
      const keys: { pk: string; sk: string }[] = [];
      for (let serial = 1; serial <= item.total; serial += 1) {
        keys.push(copyKey(item.id, serial));
        keys.push(historyKey(`${item.id}-${String(serial).padStart(3, '0')}`, 1));
      }
      await deleteAll(keys);
      const bytes = item.image_bytes + item.file_bytes;
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName,
                  Key: itemKey(item.id),
                  ConditionExpression: 'attribute_exists(pk) AND #status <> :done',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':done': 'done' },
                },
              },
              {
                Delete: {
                  TableName,
                  Key: createIdempotencyKey(item.creator_id, item.idempotency_key),
                },
              },
              {
                Update: {
                  TableName,
                  Key: limitsKey(item.creator_id),
                  UpdateExpression:
                    'SET mints_used = mints_used - :one, bytes_used = bytes_used - :bytes, image_bytes = image_bytes - :images, file_bytes = file_bytes - :files',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: {
                    ':one': 1,
                    ':bytes': bytes,
                    ':images': item.image_bytes,
                    ':files': item.file_bytes,
                  },
                },
              },
              ...item.upload_ids.map((uploadId) => ({
                Update: {
                  TableName,
                  Key: uploadKey(item.creator_id, uploadId),
                  UpdateExpression: 'SET #status = :confirmed, #ttl = :ttl REMOVE item_id',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
                  ExpressionAttributeValues: {
                    ':confirmed': 'confirmed',
                    ':ttl': ttlOf(new Date()),
                  },
                },
              })),
            ],
          }),
        );
        return true;
      } catch (error) {
        if (cancellationReasons(error) !== undefined) return false;
        throw error;
      }
    },

    async getLimits(userId) {
      const found = await get<Partial<LimitsRecord>>(limitsKey(userId));
      return {
        mints_used: found?.mints_used ?? 0,
        bytes_used: found?.bytes_used ?? 0,
        image_bytes: found?.image_bytes ?? 0,
        file_bytes: found?.file_bytes ?? 0,
      };
    },

    listMints: (creatorId, cursor, limit, productType) =>
      queryPage<ItemRecord>('mints', {
        index: 'gsi1',
        pkName: 'gsi1pk',
        pk: mintsPartition(creatorId),
        forward: false,
        cursor,
        limit,
        ...(productType === undefined
          ? {}
          : { filter: { name: 'product_type', value: productType } }),
      }),

    listHoldings: (ownerId, cursor, limit, productType) =>
      queryPage<HoldingRecord>('holdings', {
        pkName: 'pk',
        pk: `USER#${ownerId}`,
        skPrefix: HOLDING_PREFIX,
        forward: false,
        cursor,
        limit,
        ...(productType === undefined
          ? {}
          : { filter: { name: 'product_type', value: productType } }),
      }),

    listPublicHoldings: (ownerId, cursor, limit) =>
      queryPage<HoldingRecord>('public-holdings', {
        index: 'gsi2',
        pkName: 'gsi2pk',
        pk: publicPartition(ownerId),
        forward: false,
        cursor,
        limit,
      }),

    listCollectionItems: (collectionId, cursor, limit) =>
      queryPage<ItemRecord>('collection-items', {
        index: 'gsi3',
        pkName: 'gsi3pk',
        pk: collectionItemsPartition(collectionId),
        forward: false,
        cursor,
        limit,
      }),

    getHolding: (ownerId, itemId) => get<HoldingRecord>(holdingKey(ownerId, itemId)),

    async setVisibility(ownerId, itemId, visible) {
      const index = publicIndexKeys(ownerId, itemId);
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: holdingKey(ownerId, itemId),
            UpdateExpression: visible
              ? 'SET visible = :visible, gsi2pk = :g2pk, gsi2sk = :g2sk'
              : 'SET visible = :visible REMOVE gsi2pk, gsi2sk',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: {
              ':visible': visible,
              ...(visible ? { ':g2pk': index.gsi2pk, ':g2sk': index.gsi2sk } : {}),
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    listCopies: (itemId, cursor, limit) =>
      queryPage<CopyRecord>(`copies:${itemId}`, {
        pkName: 'pk',
        pk: itemKey(itemId).pk,
        skPrefix: COPY_PREFIX,
        forward: true,
        cursor,
        limit,
      }),

    getCopy: (itemId, serial) => get<CopyRecord>(copyKey(itemId, serial)),

    async lockCopy(itemId, serial, ownerId, offeringId) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: copyKey(itemId, serial),
            UpdateExpression: 'SET #status = :blocked, offering_id = :offering',
            ConditionExpression:
              '(#status = :available AND owner_id = :owner) OR (#status = :blocked AND offering_id = :offering)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':blocked': 'blocked',
              ':available': 'available',
              ':owner': ownerId,
              ':offering': offeringId,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async unlockCopy(itemId, serial, offeringId, now = new Date().toISOString()) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: copyKey(itemId, serial),
            UpdateExpression: 'SET #status = :available REMOVE offering_id, order_id, booked_until',
            // A copy booked for an order stays until its booking ends (orders release it).
            ConditionExpression:
              '#status = :blocked AND offering_id = :offering AND (attribute_not_exists(order_id) OR booked_until < :now)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':blocked': 'blocked',
              ':available': 'available',
              ':offering': offeringId,
              ':now': now,
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async lastHistory(nftuniqueid) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': historyPartition(nftuniqueid) },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      );
      const raw = result.Items?.[0];
      return raw === undefined ? undefined : strip<ProvenanceRecord>(raw);
    },

    async getHistory(nftuniqueid) {
      const records: ProvenanceRecord[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': historyPartition(nftuniqueid) },
            ConsistentRead: true,
            ...(start === undefined ? {} : { ExclusiveStartKey: start }),
          }),
        );
        records.push(...(result.Items ?? []).map((raw) => strip<ProvenanceRecord>(raw)));
        start = result.LastEvaluatedKey;
      } while (start !== undefined);
      return records;
    },
  };
}

/** The private files bucket: the attached file's size and type, and short-lived downloads. */
export interface ItemFilesStore {
  head(key: string): Promise<{ size: number; type: string } | undefined>;
  signedGet(key: string, name: string, expiresSeconds: number): Promise<string>;
}

export function createItemFilesStore(deps: { s3: S3Client; bucket: string }): ItemFilesStore {
  const { s3, bucket } = deps;
  return {
    async head(key) {
      try {
        const result = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return {
          size: result.ContentLength ?? 0,
          type: result.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'NotFound' || name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    signedGet(key, name, expiresSeconds) {
      return getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ResponseContentDisposition: `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"`,
        }),
        { expiresIn: expiresSeconds },
      );
    },
  };
}

/** A confirmed image upload of the owner, claimable by a collection (items.tx.ts claims it). */
function isStoredImage(value: unknown): value is StoredImage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as StoredImage).full === 'string' &&
    typeof (value as StoredImage).thumb === 'string'
  );
}

export async function readClaimableImageUpload(
  doc: DynamoDBDocumentClient,
  TableName: string,
  ownerId: string,
  uploadId: string,
): Promise<StoredImage | undefined> {
  const result = await doc.send(
    new GetCommand({ TableName, Key: uploadKey(ownerId, uploadId), ConsistentRead: true }),
  );
  const item = result.Item;
  if (
    item === undefined ||
    item.user_id !== ownerId ||
    item.kind !== 'image' ||
    item.status !== 'confirmed' ||
    !isStoredImage(item.image)
  ) {
    return undefined;
  }
  return { full: item.image.full, thumb: item.image.thumb };
}
