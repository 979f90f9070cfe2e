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
  cancellationReasons,
  isConditionalCheckFailed,
  isTransactionLost,
} from '../core/dynamo';
import { DomainError } from '../core/errors';
import { idempotencyRecordPut } from '../core/idempotency';
import type { WalletActivity } from '../../shared/schemas/orders';
import {
  ACTIVITY_PREFIX,
  ORDER_ACTIVITY_TYPE,
  ORDER_TYPE,
  OWED_INDEX_PARTITION,
  OWED_LINE_PREFIX,
  OWED_LINE_TYPE,
  OWED_TYPE,
  WAITING_PAYOUT_TYPE,
  WAITING_PREFIX,
  WALLET_ENTRY_TYPE,
  WALLET_PREFIX,
  activityKey,
  OPEN_DISPUTES_PARTITION,
  orderDueShards,
  orderKey,
  owedIndexSort,
  owedKey,
  owedLineKey,
  preorderIdempotencyKey,
  preorderIdempotencyScope,
  userPartition,
  waitingPayoutKey,
  walletKey,
} from './orders.keys';
import { indexKeysOf, type OrderRecord } from './orders';

export interface Page<T> {
  items: T[];
  next: string | null;
}

/** A transaction entry another domain built (items.tx, offerings.tx) or this repo builds. */
export type TransactItem = Record<string, unknown>;

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3';

export interface OrdersRepo {
  tableName: string;
  get(orderId: string): Promise<OrderRecord | undefined>;
  getMany(orderIds: readonly string[]): Promise<OrderRecord[]>;
  /** Writes the order conditioned on the version read; false when another write came first. */
  save(record: OrderRecord, expected: number): Promise<boolean>;
  /** The order written whole in a transaction, conditioned on the version read (or new). */
  orderPiece(record: OrderRecord, expected: number | null): TransactItem;
  /** A user's market activity line for an order (written with the order's transactions). */
  activityPiece(userId: string, orderId: string, role: 'buyer' | 'seller'): TransactItem;
  /**
   * The booking: the new order, the buyer's activity line, the replay record (when keyed) and the
   * copies' bookings, in one transaction. `taken` when a copy was booked meanwhile (nothing is
   * written), `replay` when the key was used already.
   */
  book(
    record: OrderRecord,
    copies: readonly TransactItem[],
    idempotency: { key: string; fingerprint: string; ttl: number } | null,
    /** Another domain's piece the booking needs (an auction's buy-now guard), last. */
    guard?: TransactItem,
  ): Promise<'booked' | 'taken' | 'replay' | 'guard'>;
  getReplay(
    userId: string,
    key: string,
  ): Promise<{ orderId: string; fingerprint: string } | undefined>;
  /** Sends a transaction; false when a condition failed (the caller re-reads and decides). */
  commit(items: readonly TransactItem[]): Promise<boolean>;
  queryIndex(
    scope: string,
    index: IndexName,
    partition: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<OrderRecord>>;
  listActivity(userId: string, cursor: string | undefined, limit: number): Promise<Page<string>>;
  /** A wallet line, written once (its key names what made it). */
  putWalletEntry(userId: string, entry: WalletActivity): Promise<void>;
  listWallet(
    userId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<Page<WalletActivity>>;
  /** Marks (or clears) that an order owes the user a share waiting for a payout account. */
  markWaiting(userId: string, orderId: string, waiting: boolean): Promise<void>;
  /** The orders owing the user a waiting share (at most `limit`). */
  listWaiting(userId: string, limit: number): Promise<string[]>;
  /**
   * Records once (per `ref`) that the user's payout account owes `amount`: a transfer reversal
   * Stripe refused. False when it was recorded already.
   */
  addOwed(line: OwedLine): Promise<boolean>;
  /** What the user's account owes in a currency (0 when nothing). */
  owedBy(userId: string, currency: string): Promise<number>;
  /**
   * Keeps back up to `upTo` of a share to pay off the user's debt, once per `ref` (a retried payout
   * finds what it kept the first time): answers the amount kept back.
   */
  settleOwed(line: Omit<OwedLine, 'amount'> & { upTo: number }): Promise<number>;
  /** Every account owing something, with how its debt came and went (support). */
  listOwed(limit: number): Promise<OwedAccount[]>;
  /** The orders due before `before` (orders.ts dueAtOf), oldest first per shard, at most `limit`. */
  dueOrders(before: string, limit: number): Promise<string[]>;
  /** The orders with an open dispute, soonest evidence deadline first (support). */
  openDisputes(limit: number): Promise<OrderRecord[]>;
}

/** One movement of what a user's payout account owes the platform. */
export interface OwedLine {
  userId: string;
  currency: string;
  amount: number;
  /** `reversal#<transferId>` or `net#<orderId>#<party>#<chargeId>` (orders.keys.ts owedLineKey). */
  ref: string;
  orderId: string;
  at: string;
  /** Why (Stripe's code of a refused reversal, or `netted`). */
  reason: string;
}

export interface OwedAccount {
  user_id: string;
  currency: string;
  amount: number;
  lines: { ref: string; order_id: string; amount: number; at: string; reason: string }[];
}

const KEY_ATTRIBUTES = ['pk', 'sk'];
/** Booking replays are kept a day: a retried booking comes back within seconds. */
const REPLAY_TTL_S = 24 * 3600;

function strip<T>(raw: Record<string, unknown>): T {
  const {
    pk: _pk,
    sk: _sk,
    type: _type,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _e,
    gsi3sk: _f,
    gsi4pk: _g,
    gsi4sk: _h,
    gsi5pk: _i,
    gsi5sk: _j,
    ...rest
  } = raw;
  return rest as T;
}

function invalidCursor(): DomainError {
  return new DomainError('invalid_request', {
    message: 'The cursor is not valid for this list.',
    fields: { cursor: 'forms.validation.cursor' },
  });
}

export function createOrdersRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): OrdersRepo {
  const { doc, tableName } = deps;
  const TableName = tableName;

  const orderItem = (record: OrderRecord) => ({
    ...orderKey(record.id),
    type: ORDER_TYPE,
    ...record,
    ...indexKeysOf(record),
  });

  function orderPiece(record: OrderRecord, expected: number | null): TransactItem {
    return {
      Put: {
        TableName,
        Item: orderItem(record),
        ...(expected === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: 'version = :expected',
              ExpressionAttributeValues: { ':expected': expected },
            }),
      },
    };
  }

  function activityPiece(userId: string, orderId: string, role: 'buyer' | 'seller') {
    return {
      Put: {
        TableName,
        Item: {
          ...activityKey(userId, orderId),
          type: ORDER_ACTIVITY_TYPE,
          order_id: orderId,
          role,
        },
      },
    };
  }

  async function page(
    scope: string,
    input: {
      index?: IndexName;
      pkName: string;
      pk: string;
      skPrefix?: string;
      cursor: string | undefined;
      limit: number;
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
        ScanIndexForward: false,
        Limit: input.limit,
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    const items = result.Items ?? [];
    const last = items.at(-1);
    return {
      items,
      next:
        result.LastEvaluatedKey !== undefined && last !== undefined
          ? encodeCursor(scope, Object.fromEntries(keyAttributes.map((name) => [name, last[name]])))
          : null,
    };
  }

  const repo: OrdersRepo = {
    tableName,

    async get(orderId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: orderKey(orderId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : strip<OrderRecord>(result.Item);
    },

    async getMany(orderIds) {
      const found = new Map<string, OrderRecord>();
      const keys = [...new Set(orderIds)].map((id) => ({ ...orderKey(id) }));
      for (const raw of await batchGetAll(doc, TableName, keys)) {
        const record = strip<OrderRecord>(raw);
        found.set(record.id, record);
      }
      return orderIds.flatMap((id) => {
        const record = found.get(id);
        return record === undefined ? [] : [record];
      });
    },

    async save(record, expected) {
      try {
        await doc.send(
          new PutCommand({
            TableName,
            Item: orderItem(record),
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

    orderPiece,
    activityPiece,

    async book(record, copies, idempotency, guard) {
      const items: TransactItem[] = [
        orderPiece(record, null),
        activityPiece(record.buyer.id, record.id, 'buyer'),
        ...(idempotency === null
          ? []
          : [
              idempotencyRecordPut(TableName, {
                scope: preorderIdempotencyScope(record.buyer.id),
                key: idempotency.key,
                fingerprint: idempotency.fingerprint,
                fields: { order_id: record.id },
                ttl: idempotency.ttl + REPLAY_TTL_S,
              }),
            ]),
        ...copies,
        ...(guard === undefined ? [] : [guard]),
      ];
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items as never }));
        return 'booked';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons === undefined) throw error;
        if (guard !== undefined && reasons[items.length - 1]?.Code === 'ConditionalCheckFailed') {
          return 'guard';
        }
        if (idempotency !== null && reasons[2]?.Code === 'ConditionalCheckFailed') return 'replay';
        if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return 'taken';
        // TransactionConflict: another booking is writing the same copies now.
        if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return 'taken';
        throw error;
      }
    },

    async getReplay(userId, key) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: preorderIdempotencyKey(userId, key),
          ConsistentRead: true,
        }),
      );
      const item = result.Item as { fingerprint?: string; order_id?: string } | undefined;
      if (item?.order_id === undefined || item.fingerprint === undefined) return undefined;
      return { orderId: item.order_id, fingerprint: item.fingerprint };
    },

    async commit(items) {
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items as never }));
        return true;
      } catch (error) {
        if (isTransactionLost(error)) return false;
        throw error;
      }
    },

    async queryIndex(scope, index, partition, cursor, limit) {
      const result = await page(scope, {
        index,
        pkName: `${index}pk`,
        pk: partition,
        cursor,
        limit,
      });
      return { items: result.items.map((raw) => strip<OrderRecord>(raw)), next: result.next };
    },

    async listActivity(userId, cursor, limit) {
      const result = await page('order-activity', {
        pkName: 'pk',
        pk: userPartition(userId),
        skPrefix: ACTIVITY_PREFIX,
        cursor,
        limit,
      });
      return {
        items: result.items.map((raw) => String(raw.order_id)),
        next: result.next,
      };
    },

    async putWalletEntry(userId, entry) {
      try {
        await doc.send(
          new PutCommand({
            TableName,
            // `type` is the item's entity type (every item's); the line's own type is `kind`.
            Item: {
              ...entry,
              ...walletKey(userId, entry.date, entry.id),
              type: WALLET_ENTRY_TYPE,
              kind: entry.type,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async markWaiting(userId, orderId, waiting) {
      const key = waitingPayoutKey(userId, orderId);
      if (waiting) {
        await doc.send(
          new PutCommand({
            TableName,
            Item: { ...key, type: WAITING_PAYOUT_TYPE, order_id: orderId },
          }),
        );
      } else {
        await doc.send(new DeleteCommand({ TableName, Key: key }));
      }
    },

    async listWaiting(userId, limit) {
      const result = await page('waiting', {
        pkName: 'pk',
        pk: userPartition(userId),
        skPrefix: WAITING_PREFIX,
        cursor: undefined,
        limit,
      });
      return result.items.map((raw) => String(raw.order_id));
    },

    async addOwed(line) {
      const key = owedKey(line.userId, line.currency);
      return repo.commit([
        {
          Put: {
            TableName,
            Item: {
              ...owedLineKey(line.userId, line.ref),
              type: OWED_LINE_TYPE,
              ref: line.ref,
              order_id: line.orderId,
              amount: line.amount,
              currency: line.currency,
              at: line.at,
              reason: line.reason,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName,
            Key: key,
            UpdateExpression:
              'ADD amount :amount SET #type = :type, currency = :currency, user_id = :user, gsi1pk = :index, gsi1sk = :sort, updated_at = :at',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':amount': line.amount,
              ':type': OWED_TYPE,
              ':currency': line.currency,
              ':user': line.userId,
              ':index': OWED_INDEX_PARTITION,
              ':sort': owedIndexSort(line.userId, line.currency),
              ':at': line.at,
            },
          },
        },
      ]);
    },

    async owedBy(userId, currency) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: owedKey(userId, currency), ConsistentRead: true }),
      );
      return Number((result.Item as { amount?: number } | undefined)?.amount ?? 0);
    },

    async settleOwed(line) {
      const lineKey = owedLineKey(line.userId, line.ref);
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const [kept, owed] = await Promise.all([
          doc.send(new GetCommand({ TableName, Key: lineKey, ConsistentRead: true })),
          repo.owedBy(line.userId, line.currency),
        ]);
        if (kept.Item !== undefined) return Number((kept.Item as { amount: number }).amount) * -1;
        const amount = Math.min(owed, line.upTo);
        if (amount <= 0) return 0;
        const done = await repo.commit([
          {
            Put: {
              TableName,
              Item: {
                ...lineKey,
                type: OWED_LINE_TYPE,
                ref: line.ref,
                order_id: line.orderId,
                // A line paying a debt off is negative: the lines of an account add up to it.
                amount: -amount,
                currency: line.currency,
                at: line.at,
                reason: line.reason,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName,
              Key: owedKey(line.userId, line.currency),
              UpdateExpression: 'ADD amount :minus SET updated_at = :at',
              ConditionExpression: 'amount >= :amount',
              ExpressionAttributeValues: { ':minus': -amount, ':amount': amount, ':at': line.at },
            },
          },
        ]);
        if (done) return amount;
      }
      throw new DomainError('unavailable', { message: 'The payout account is busy; try again.' });
    },

    async listOwed(limit) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :index',
          FilterExpression: 'amount > :zero',
          ExpressionAttributeValues: { ':index': OWED_INDEX_PARTITION, ':zero': 0 },
          Limit: limit,
        }),
      );
      const accounts = (result.Items ?? []) as {
        user_id: string;
        currency: string;
        amount: number;
      }[];
      return Promise.all(
        accounts.map(async (account) => {
          const lines = await doc.send(
            new QueryCommand({
              TableName,
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
              ExpressionAttributeValues: {
                ':pk': userPartition(account.user_id),
                ':prefix': OWED_LINE_PREFIX,
              },
            }),
          );
          return {
            user_id: account.user_id,
            currency: account.currency,
            amount: Number(account.amount),
            lines: ((lines.Items ?? []) as (OwedAccount['lines'][number] & { currency: string })[])
              .filter((entry) => entry.currency === account.currency)
              .map((entry) => ({
                ref: entry.ref,
                order_id: entry.order_id,
                amount: Number(entry.amount),
                at: entry.at,
                reason: entry.reason,
              })),
          };
        }),
      );
    },

    async openDisputes(limit) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: 'gsi5',
          KeyConditionExpression: 'gsi5pk = :partition',
          ExpressionAttributeValues: { ':partition': OPEN_DISPUTES_PARTITION },
          Limit: limit,
        }),
      );
      return (result.Items ?? []).map((raw) => strip<OrderRecord>(raw));
    },

    async dueOrders(before, limit) {
      const shards = await Promise.all(
        orderDueShards().map(async (partition) => {
          const result = await doc.send(
            new QueryCommand({
              TableName,
              IndexName: 'gsi4',
              KeyConditionExpression: 'gsi4pk = :partition AND gsi4sk < :before',
              ExpressionAttributeValues: { ':partition': partition, ':before': before },
              ProjectionExpression: 'id, gsi4sk',
              Limit: limit,
            }),
          );
          return (result.Items ?? []) as { id: string; gsi4sk: string }[];
        }),
      );
      return shards
        .flat()
        .sort((a, b) => a.gsi4sk.localeCompare(b.gsi4sk))
        .slice(0, limit)
        .map((entry) => entry.id);
    },

    async listWallet(userId, cursor, limit) {
      const result = await page('wallet', {
        pkName: 'pk',
        pk: userPartition(userId),
        skPrefix: WALLET_PREFIX,
        cursor,
        limit,
      });
      return {
        items: result.items.map((raw) => {
          const { kind, ...rest } = strip<
            Omit<WalletActivity, 'type'> & { kind: WalletActivity['type'] }
          >(raw);
          return { ...rest, type: kind };
        }),
        next: result.next,
      };
    },
  };
  return repo;
}
