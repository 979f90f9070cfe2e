import { itemsCountUpdate } from './collections.tx';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../core/dynamo';
import type { StoredImage } from '../images/index';
import type { CollectionRecord } from './collections';
import {
  COLLECTION_NAME_GUARD_TYPE,
  COLLECTION_TYPE,
  collectionKey,
  collectionNameGuardKey,
  ownerCollectionsIndexKeys,
  ownerCollectionsPartition,
} from './collections.keys';

export type CreateOutcome = 'created' | 'exists' | 'image';

/**
 * The image upload a new collection claims belongs to the items domain (its upload item): read
 * and claimed through these pieces, which collections.deps.ts takes from items' public module
 * (items.tx.ts). Collections never imports items, so items may import collections.
 */
export interface UploadClaimPieces {
  read(
    doc: DynamoDBDocumentClient,
    TableName: string,
    ownerId: string,
    uploadId: string,
  ): Promise<StoredImage | undefined>;
  /** The Update entry of the claim, for the collection's transaction. */
  claimUpdate(
    TableName: string,
    ownerId: string,
    uploadId: string,
    collectionId: string,
  ): {
    TableName: string;
    Key: { pk: string; sk: string };
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  };
}

export interface CollectionsRepo {
  /** The owner's confirmed image upload (its re-encoded keys); undefined if missing/used/foreign. */
  readImageUpload(ownerId: string, uploadId: string): Promise<StoredImage | undefined>;
  /**
   * One transaction: the collection, its name guard and the claim of its image upload. 'exists'
   * when the owner already has this name, 'image' when the upload is no longer claimable.
   */
  create(record: CollectionRecord): Promise<CreateOutcome>;
  get(collectionId: string): Promise<CollectionRecord | undefined>;
  /** The owner's collections, newest first (all pages). */
  listByOwner(ownerId: string): Promise<CollectionRecord[]>;
  /** ADD items_count :delta on an existing collection; false when there is none. */
  incrementItemsCount(collectionId: string, delta: number): Promise<boolean>;
}

function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if ((error as { name?: string } | null)?.name !== 'TransactionCanceledException') return;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (reasons ?? []).map((reason) => reason.Code);
}

function toRecord(item: Record<string, unknown>): CollectionRecord {
  return {
    id: String(item.id),
    symbol: String(item.symbol),
    title: String(item.title),
    name: String(item.name),
    image: item.image as StoredImage,
    owner_id: String(item.owner_id),
    owner_nick: String(item.owner_nick),
    items_count: Number(item.items_count ?? 0),
    created_at: String(item.created_at),
    upload_id: String(item.upload_id),
  };
}

/** Transactions lost to a concurrent one (TransactionConflict) are tried again this many times. */
const CONFLICT_RETRIES = 20;

/** The collections domain's only DynamoDB caller. */
export function createCollectionsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
  sleep?: (ms: number) => Promise<void>;
  /** Needed by readImageUpload and create only (items reads collections without it). */
  uploads?: UploadClaimPieces;
}): CollectionsRepo {
  const { doc, tableName: TableName } = deps;
  const uploadPieces = (): UploadClaimPieces => {
    if (deps.uploads === undefined) throw new Error('collections repo built without upload pieces');
    return deps.uploads;
  };
  const sleep =
    deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    readImageUpload: (ownerId, uploadId) => uploadPieces().read(doc, TableName, ownerId, uploadId),

    async create(record) {
      const transactItems = [
        {
          Put: {
            TableName,
            Item: {
              ...collectionKey(record.id),
              ...ownerCollectionsIndexKeys(record.owner_id, record.created_at, record.id),
              type: COLLECTION_TYPE,
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName,
            Item: {
              ...collectionNameGuardKey(record.owner_id, record.name),
              type: COLLECTION_NAME_GUARD_TYPE,
              owner_id: record.owner_id,
              name: record.name,
              collection_id: record.id,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: uploadPieces().claimUpdate(
            TableName,
            record.owner_id,
            record.upload_id,
            record.id,
          ),
        },
      ];
      for (let attempt = 0; ; attempt += 1) {
        try {
          await doc.send(new TransactWriteCommand({ TransactItems: transactItems }));
          return 'created';
        } catch (error) {
          const codes = cancellationCodes(error);
          if (codes === undefined) throw error;
          if (codes[1] === 'ConditionalCheckFailed') return 'exists';
          if (codes[2] === 'ConditionalCheckFailed') return 'image';
          if (attempt >= CONFLICT_RETRIES) throw error;
          await sleep(Math.round(Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5))));
        }
      }
    },

    async get(collectionId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: collectionKey(collectionId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : toRecord(result.Item);
    },

    async listByOwner(ownerId) {
      const records: CollectionRecord[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': ownerCollectionsPartition(ownerId) },
            ScanIndexForward: false,
            ...(start === undefined ? {} : { ExclusiveStartKey: start }),
          }),
        );
        for (const item of result.Items ?? []) records.push(toRecord(item));
        start = result.LastEvaluatedKey;
      } while (start !== undefined);
      return records;
    },

    async incrementItemsCount(collectionId, delta) {
      try {
        await doc.send(new UpdateCommand(itemsCountUpdate(TableName, collectionId, delta)));
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) {
          return false;
        }
        throw error;
      }
    },
  };
}
