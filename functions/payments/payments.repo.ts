import {
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { isConditionalCheckFailed } from '../core/dynamo';
import type { MoneyFinding } from './reconcile';
import {
  ACCOUNT_OWNER_TYPE,
  accountOwnerKey,
  FINDING_PREFIX,
  FINDING_TYPE,
  findingKey,
  RECONCILE_TYPE,
  reconcileCursorKey,
  PAYMENTS_TYPE,
  PENDING_EVENTS_PARTITION,
  paymentsKey,
  pendingEventSort,
  STRIPE_EVENT_TYPE,
  stripeEventKey,
} from './payments.keys';

/** A user's Stripe references. */
export interface PaymentsRecord {
  user_id: string;
  /** The Connect Express account (seller onboarding), once begun. */
  stripe_account_id?: string;
  /** Its country (fixed by Stripe at creation). */
  account_country?: string;
  /** The Stripe customer holding the user's saved cards, once needed. */
  customer_id?: string;
  updated_at: string;
}

/** What claiming a webhook event found. */
export type EventClaim = 'claimed' | 'done' | 'busy' | 'missing';

export interface PaymentsRepo {
  getRecord(userId: string): Promise<PaymentsRecord | undefined>;
  /**
   * Keeps `accountId` as the user's connected account unless one is kept already; answers the
   * account kept (the earlier one when two begins raced).
   */
  keepAccount(userId: string, accountId: string, country: string, now: Date): Promise<string>;
  /** Keeps `customerId` as the user's customer unless one is kept already; answers the one kept. */
  keepCustomer(userId: string, customerId: string, now: Date): Promise<string>;
  /** The user whose connected account it is (kept with the account), if known. */
  userOfAccount(accountId: string): Promise<string | undefined>;
  /** Forgets the user's connected account (deauthorized): a new onboarding opens a new one. */
  forgetAccount(userId: string, accountId: string, now: Date): Promise<void>;
  /**
   * Keeps a verified event as `received` (its JSON, in the pending index) unless it is kept
   * already: `new`, or `known` (a redelivery, whatever became of the first).
   */
  receiveEvent(
    event: { id: string; type: string; payload: string },
    now: Date,
  ): Promise<'new' | 'known'>;
  /**
   * Claims a received event for handling: `claimed` (received, or an earlier claim's lease ran
   * out), `done` (handled before), `busy` (being handled now), `missing` (never received).
   */
  claimEvent(eventId: string, now: Date): Promise<EventClaim>;
  /** Marks a claimed event handled (out of the pending index). */
  finishEvent(eventId: string, now: Date): Promise<void>;
  /** Gives a claim up after a failure: received again, for the retry or the sweep. */
  releaseEvent(eventId: string): Promise<void>;
  /** Events received before `before` and not handled yet, oldest first (their JSON). */
  pendingEvents(before: string, limit: number): Promise<{ id: string; payload: string }[]>;
  /** Where reconciliation stopped (unix seconds), if it ever ran. */
  reconcileCursor(): Promise<number | undefined>;
  moveReconcileCursor(to: number): Promise<void>;
  /** Keeps a finding of reconciliation for support (once per object and kind). */
  keepFinding(finding: MoneyFinding, now: Date): Promise<void>;
  /** What reconciliation found, newest first (support). */
  listFindings(limit: number): Promise<(MoneyFinding & { found_at: string })[]>;
}

/**
 * The kept event a stream record of the table carries (the `stripeEvents` trigger's records: new
 * event items), as the webhook received it; undefined for anything else.
 */
export function keptEventOf(record: DynamoDBRecord): { id: string; payload: string } | undefined {
  const image = record.dynamodb?.NewImage;
  if (image === undefined) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.type !== STRIPE_EVENT_TYPE || item.state !== 'received') return undefined;
  if (typeof item.event_id !== 'string' || typeof item.payload !== 'string') return undefined;
  return { id: item.event_id, payload: item.payload };
}

/** How long a delivery may hold an event before another delivery may take it over. */
export const EVENT_LEASE_MS = 60_000;
/** Event records are kept 30 days (Stripe redelivers for 3). */
export const EVENT_RETENTION_S = 30 * 24 * 3600;

/** The payments domain's only DynamoDB caller. */
export function createPaymentsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): PaymentsRepo {
  const { doc, tableName } = deps;

  async function getRecord(userId: string): Promise<PaymentsRecord | undefined> {
    const result = await doc.send(
      new GetCommand({ TableName: tableName, Key: paymentsKey(userId), ConsistentRead: true }),
    );
    if (result.Item === undefined) return undefined;
    const { pk: _pk, sk: _sk, type: _type, ...rest } = result.Item;
    return rest as PaymentsRecord;
  }

  /** Sets `field` once: absent or equal; answers the value kept. */
  async function keepOnce(
    userId: string,
    field: 'stripe_account_id' | 'customer_id',
    value: string,
    extra: Record<string, string>,
    now: Date,
  ): Promise<string> {
    const names: Record<string, string> = { '#f': field };
    const values: Record<string, unknown> = {
      ':v': value,
      ':uid': userId,
      ':now': now.toISOString(),
      ':type': PAYMENTS_TYPE,
    };
    const sets = ['#f = :v', 'user_id = :uid', 'updated_at = :now', '#type = :type'];
    names['#type'] = 'type';
    Object.entries(extra).forEach(([name, extraValue], index) => {
      names[`#x${index}`] = name;
      values[`:x${index}`] = extraValue;
      sets.push(`#x${index} = :x${index}`);
    });
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: paymentsKey(userId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_not_exists(#f) OR #f = :v',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return value;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const kept = (await getRecord(userId))?.[field];
      if (kept === undefined) throw error;
      return kept;
    }
  }

  return {
    getRecord,

    async keepAccount(userId, accountId, country, now) {
      const kept = await keepOnce(
        userId,
        'stripe_account_id',
        accountId,
        { account_country: country },
        now,
      );
      if (kept === accountId) {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...accountOwnerKey(accountId), type: ACCOUNT_OWNER_TYPE, user_id: userId },
          }),
        );
      }
      return kept;
    },

    async userOfAccount(accountId) {
      const found = await doc.send(
        new GetCommand({ TableName: tableName, Key: accountOwnerKey(accountId) }),
      );
      const userId = (found.Item as { user_id?: string } | undefined)?.user_id;
      return typeof userId === 'string' ? userId : undefined;
    },

    async forgetAccount(userId, accountId, now) {
      await doc
        .send(
          new UpdateCommand({
            TableName: tableName,
            Key: paymentsKey(userId),
            UpdateExpression: 'REMOVE stripe_account_id, account_country SET updated_at = :now',
            ConditionExpression: 'stripe_account_id = :account',
            ExpressionAttributeValues: { ':account': accountId, ':now': now.toISOString() },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionalCheckFailed(error)) throw error;
        });
    },

    keepCustomer: (userId, customerId, now) => keepOnce(userId, 'customer_id', customerId, {}, now),

    async receiveEvent(event, now) {
      const at = now.toISOString();
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...stripeEventKey(event.id),
              type: STRIPE_EVENT_TYPE,
              event_id: event.id,
              event_type: event.type,
              state: 'received',
              payload: event.payload,
              received_at: at,
              gsi5pk: PENDING_EVENTS_PARTITION,
              gsi5sk: pendingEventSort(at, event.id),
              ttl: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_S,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return 'new';
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        return 'known';
      }
    },

    async claimEvent(eventId, now) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: stripeEventKey(eventId),
            UpdateExpression: 'SET #state = :processing, lease_until = :lease',
            // Received, or an earlier claim whose lease ran out (it was stopped mid-way).
            ConditionExpression:
              '#state = :received OR (#state = :processing AND lease_until < :now)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':processing': 'processing',
              ':received': 'received',
              ':lease': now.getTime() + EVENT_LEASE_MS,
              ':now': now.getTime(),
            },
          }),
        );
        return 'claimed';
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const found = await doc.send(
          new GetCommand({
            TableName: tableName,
            Key: stripeEventKey(eventId),
            ConsistentRead: true,
            ProjectionExpression: '#state',
            ExpressionAttributeNames: { '#state': 'state' },
          }),
        );
        if (found.Item === undefined) return 'missing';
        return found.Item.state === 'done' ? 'done' : 'busy';
      }
    },

    async finishEvent(eventId, now) {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: stripeEventKey(eventId),
          UpdateExpression:
            'SET #state = :done, done_at = :now REMOVE lease_until, gsi5pk, gsi5sk, payload',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':done': 'done', ':now': now.toISOString() },
        }),
      );
    },

    async releaseEvent(eventId) {
      await doc
        .send(
          new UpdateCommand({
            TableName: tableName,
            Key: stripeEventKey(eventId),
            UpdateExpression: 'SET #state = :received REMOVE lease_until',
            ConditionExpression: '#state = :processing',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':processing': 'processing', ':received': 'received' },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionalCheckFailed(error)) throw error;
        });
    },

    async reconcileCursor() {
      const found = await doc.send(
        new GetCommand({ TableName: tableName, Key: reconcileCursorKey(), ConsistentRead: true }),
      );
      const at = (found.Item as { at?: number } | undefined)?.at;
      return typeof at === 'number' ? at : undefined;
    },

    async moveReconcileCursor(to) {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...reconcileCursorKey(), type: RECONCILE_TYPE, at: to },
        }),
      );
    },

    async keepFinding(finding, now) {
      await doc
        .send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...findingKey(finding.ref, finding.code),
              type: FINDING_TYPE,
              ...finding,
              found_at: now.toISOString(),
              ttl: Math.floor(now.getTime() / 1000) + 90 * 24 * 3600,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionalCheckFailed(error)) throw error;
        });
    },

    async listFindings(limit) {
      const result = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': 'RECONCILE', ':prefix': FINDING_PREFIX },
          Limit: limit,
        }),
      );
      return ((result.Items ?? []) as (MoneyFinding & { found_at: string })[])
        .map((item) => ({
          order_id: item.order_id,
          ref: item.ref,
          code: item.code,
          detail: item.detail,
          found_at: item.found_at,
        }))
        .sort((a, b) => b.found_at.localeCompare(a.found_at));
    },

    async pendingEvents(before, limit) {
      const result = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi5',
          KeyConditionExpression: 'gsi5pk = :pending AND gsi5sk < :before',
          ExpressionAttributeValues: { ':pending': PENDING_EVENTS_PARTITION, ':before': before },
          ProjectionExpression: 'event_id, payload',
          Limit: limit,
        }),
      );
      return ((result.Items ?? []) as { event_id: string; payload: string }[]).map((item) => ({
        id: item.event_id,
        payload: item.payload,
      }));
    },
  };
}
