import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '../core/cursor';
import {
  batchGetAll,
  batchWriteAll,
  cancellationReasons,
  isConditionalCheckFailed,
} from '../core/dynamo';
import { DomainError } from '../core/errors';
import { idempotencyRecordPut } from '../core/idempotency';
import {
  FAVORITE_PREFIX,
  FAVORITE_TYPE,
  INVITE_TYPE,
  MARKET_ENTRY_TYPE,
  createIdempotencyKey,
  createIdempotencyScope,
  favoriteKey,
  favoritesPartition,
  offeringFavoritesPartition,
  inviteKey,
  invitedPartition,
  offeringKey,
  type Key,
} from './offerings.keys';
import type { MarketEntry, OfferingRecord } from './offerings';
import { offeringItem } from './offerings.tx';

/**
 * The offerings domain's only DynamoDB caller. The offering is one item written whole (Put),
 * conditioned on the version it was read at, with its index keys derived from its state
 * (offerings.ts `indexKeysOf`), so a list shows an offering exactly while its state says so.
 */
export interface Page<T> {
  items: T[];
  next: string | null;
}

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5';

export interface OfferingsRepo {
  get(offeringId: string): Promise<OfferingRecord | undefined>;
  getMany(offeringIds: readonly string[]): Promise<OfferingRecord[]>;
  /**
   * The first write: the offering and the idempotency record of its create call, in one
   * transaction. 'duplicate' when the key was used (the caller reads the replay record).
   */
  create(
    record: OfferingRecord,
    idempotency: { key: string; fingerprint: string; ttlFrom: Date },
  ): Promise<'created' | 'duplicate'>;
  getReplay(
    userId: string,
    key: string,
  ): Promise<{ offeringId: string; fingerprint: string } | undefined>;
  /** Writes the offering if its stored version is `expected`; false when another write won. */
  save(record: OfferingRecord, expected: number): Promise<boolean>;
  /**
   * The save in a transaction with another domain's `guard` piece (a delisted auction's lot):
   * `conflict` when another write came first, `guard` when the guard's condition failed.
   */
  saveGuarded(
    record: OfferingRecord,
    expected: number,
    guard: Record<string, unknown>,
  ): Promise<'saved' | 'conflict' | 'guard'>;
  /** A page of offerings of an index partition, newest first unless `forward`. */
  queryIndex(
    scope: string,
    index: IndexName,
    partition: string,
    input: { cursor: string | undefined; limit: number; forward?: boolean },
  ): Promise<Page<OfferingRecord>>;
  /** A page of a market partition (the entries carry the card). */
  queryMarket(
    partition: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<MarketEntry>>;
  putMarketEntries(entries: readonly MarketEntry[]): Promise<void>;
  deleteMarketEntries(keys: readonly Key[]): Promise<void>;
  isInvited(offeringId: string, userId: string): Promise<boolean>;
  /** Invitation items; `listed` puts them on the invitees' lists (a published offering). */
  putInvites(
    offeringId: string,
    invitees: readonly { id: string; nick: string }[],
    listed: boolean,
  ): Promise<void>;
  /** The offering ids a user is invited to, newest first. */
  listInvited(userId: string, cursor: string | undefined, limit: number): Promise<Page<string>>;
  isFavorite(userId: string, offeringId: string): Promise<boolean>;
  /** Who favourited an offering (an auction's end reminders). */
  favoritersOf(offeringId: string): Promise<string[]>;
  setFavorite(userId: string, offeringId: string, favorite: boolean, at: string): Promise<void>;
  listFavorites(userId: string, cursor: string | undefined, limit: number): Promise<Page<string>>;
}

const KEY_ATTRIBUTES = ['pk', 'sk'];

function offeringOf(raw: Record<string, unknown>): OfferingRecord {
  const { offering_type, ...rest } = strip<Record<string, unknown>>(raw);
  // Offerings stored before auctions (issue 13) have no reserve nor closing flag.
  return {
    reserve_price: null,
    closing: false,
    bids_index: -1,
    ...rest,
    type: offering_type,
  } as OfferingRecord;
}

function strip<T>(raw: Record<string, unknown>): T {
  const {
    pk: _pk,
    sk: _sk,
    type: _type,
    ttl: _ttl,
    gsi1pk: _1,
    gsi1sk: _2,
    gsi2pk: _3,
    gsi2sk: _4,
    gsi3pk: _5,
    gsi3sk: _6,
    gsi4pk: _7,
    gsi4sk: _8,
    gsi5pk: _9,
    gsi5sk: _10,
    ...rest
  } = raw;
  return rest as T;
}

/** Idempotency records of offering/create are kept a day. */
const REPLAY_TTL_S = 24 * 3600;

function invalidCursor(): DomainError {
  return new DomainError('invalid_request', {
    message: 'The cursor is not valid for this list.',
    fields: { cursor: 'forms.validation.cursor' },
  });
}

export function createOfferingsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): OfferingsRepo {
  const { doc } = deps;
  const TableName = deps.tableName;

  // Every item's `type` is its entity type: the offering's own type (fixed, auction) is stored
  // as `offering_type`.

  async function page(
    scope: string,
    input: {
      index?: IndexName;
      pkName: string;
      pk: string;
      skPrefix?: string;
      forward: boolean;
      cursor: string | undefined;
      limit: number;
      projection?: string;
    },
  ): Promise<Page<Record<string, unknown>>> {
    const keyAttributes =
      input.index === undefined
        ? KEY_ATTRIBUTES
        : [...KEY_ATTRIBUTES, `${input.index}pk`, `${input.index}sk`];
    const start = decodeCursor(scope, input.cursor, keyAttributes);
    if (start !== undefined && start[input.pkName] !== input.pk) throw invalidCursor();
    const skName = input.index === undefined ? 'sk' : `${input.index}sk`;
    const result = await doc.send(
      new QueryCommand({
        TableName,
        ...(input.index === undefined ? {} : { IndexName: input.index }),
        KeyConditionExpression:
          input.skPrefix === undefined ? '#pk = :pk' : '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: {
          '#pk': input.pkName,
          ...(input.skPrefix === undefined ? {} : { '#sk': skName }),
        },
        ExpressionAttributeValues: {
          ':pk': input.pk,
          ...(input.skPrefix === undefined ? {} : { ':prefix': input.skPrefix }),
        },
        ScanIndexForward: input.forward,
        Limit: input.limit,
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    const items = result.Items ?? [];
    const last = items.at(-1);
    // DynamoDB answers a LastEvaluatedKey when the page is full even if nothing follows: the
    // client's next call then gets an empty page (one extra Query, never a missed item).
    return {
      items,
      next:
        result.LastEvaluatedKey !== undefined && last !== undefined
          ? encodeCursor(scope, Object.fromEntries(keyAttributes.map((name) => [name, last[name]])))
          : null,
    };
  }

  async function batchWrite(requests: Record<string, unknown>[]): Promise<void> {
    await batchWriteAll(doc, TableName, requests);
  }

  return {
    async get(offeringId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: offeringKey(offeringId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : offeringOf(result.Item);
    },

    async getMany(offeringIds) {
      const found = new Map<string, OfferingRecord>();
      const keys = [...new Set(offeringIds)].map((id) => ({ ...offeringKey(id) }));
      for (const raw of await batchGetAll(doc, TableName, keys)) {
        const record = offeringOf(raw);
        found.set(record.id, record);
      }
      return offeringIds.flatMap((id) => {
        const record = found.get(id);
        return record === undefined ? [] : [record];
      });
    },

    async create(record, idempotency) {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName,
                  Item: offeringItem(record),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              idempotencyRecordPut(TableName, {
                scope: createIdempotencyScope(record.seller_id),
                key: idempotency.key,
                fingerprint: idempotency.fingerprint,
                fields: { offering_id: record.id },
                ttl: Math.floor(idempotency.ttlFrom.getTime() / 1000) + REPLAY_TTL_S,
              }),
            ],
          }),
        );
        return 'created';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons !== undefined && reasons[1]?.Code === 'ConditionalCheckFailed') {
          return 'duplicate';
        }
        throw error;
      }
    },

    async getReplay(userId, key) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: createIdempotencyKey(userId, key), ConsistentRead: true }),
      );
      const item = result.Item as { fingerprint?: string; offering_id?: string } | undefined;
      if (item?.offering_id === undefined || item.fingerprint === undefined) return undefined;
      return { offeringId: item.offering_id, fingerprint: item.fingerprint };
    },

    async save(record, expected) {
      try {
        await doc.send(
          new PutCommand({
            TableName,
            Item: offeringItem(record),
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': expected },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async saveGuarded(record, expected, guard) {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName,
                  Item: offeringItem(record),
                  ConditionExpression: 'version = :expected',
                  ExpressionAttributeValues: { ':expected': expected },
                },
              },
              guard as never,
            ],
          }),
        );
        return 'saved';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons === undefined) throw error;
        if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'guard';
        return 'conflict';
      }
    },

    async queryIndex(scope, index, partition, input) {
      const result = await page(scope, {
        index,
        pkName: `${index}pk`,
        pk: partition,
        forward: input.forward ?? false,
        cursor: input.cursor,
        limit: input.limit,
      });
      return { items: result.items.map(offeringOf), next: result.next };
    },

    async queryMarket(partition, cursor, limit) {
      const result = await page('market', {
        pkName: 'pk',
        pk: partition,
        forward: false,
        cursor,
        limit,
      });
      return {
        items: result.items.map((raw) => strip<MarketEntry>(raw)),
        next: result.next,
      };
    },

    async putMarketEntries(entries) {
      await batchWrite(
        entries.map(({ pk, sk, ...entry }) => ({
          PutRequest: { Item: { pk, sk, type: MARKET_ENTRY_TYPE, ...entry } },
        })),
      );
    },

    async deleteMarketEntries(keys) {
      await batchWrite(keys.map((key) => ({ DeleteRequest: { Key: { ...key } } })));
    },

    async isInvited(offeringId, userId) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: inviteKey(offeringId, userId),
          ProjectionExpression: 'pk',
        }),
      );
      return result.Item !== undefined;
    },

    async putInvites(offeringId, invitees, listed) {
      await batchWrite(
        invitees.map((invitee) => ({
          PutRequest: {
            Item: {
              ...inviteKey(offeringId, invitee.id),
              type: INVITE_TYPE,
              offering_id: offeringId,
              user_id: invitee.id,
              nick: invitee.nick,
              ...(listed ? { gsi1pk: invitedPartition(invitee.id), gsi1sk: offeringId } : {}),
            },
          },
        })),
      );
    },

    async listInvited(userId, cursor, limit) {
      const result = await page('invited', {
        index: 'gsi1',
        pkName: 'gsi1pk',
        pk: invitedPartition(userId),
        forward: false,
        cursor,
        limit,
      });
      return { items: result.items.map((raw) => String(raw.offering_id)), next: result.next };
    },

    async isFavorite(userId, offeringId) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: favoriteKey(userId, offeringId),
          ProjectionExpression: 'pk',
        }),
      );
      return result.Item !== undefined;
    },

    async setFavorite(userId, offeringId, favorite, at) {
      if (favorite) {
        await doc.send(
          new PutCommand({
            TableName,
            Item: {
              ...favoriteKey(userId, offeringId),
              type: FAVORITE_TYPE,
              offering_id: offeringId,
              user_id: userId,
              created_at: at,
              gsi1pk: offeringFavoritesPartition(offeringId),
              gsi1sk: userId,
            },
          }),
        );
      } else {
        await doc.send(new DeleteCommand({ TableName, Key: favoriteKey(userId, offeringId) }));
      }
    },

    async favoritersOf(offeringId) {
      const users: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': offeringFavoritesPartition(offeringId) },
            ExclusiveStartKey: start,
          }),
        );
        for (const raw of result.Items ?? []) users.push(raw.gsi1sk as string);
        start = result.LastEvaluatedKey;
      } while (start !== undefined);
      return users;
    },

    async listFavorites(userId, cursor, limit) {
      const result = await page('favorites', {
        pkName: 'pk',
        pk: favoritesPartition(userId),
        skPrefix: FAVORITE_PREFIX,
        forward: false,
        cursor,
        limit,
      });
      return { items: result.items.map((raw) => String(raw.offering_id)), next: result.next };
    },
  };
}
