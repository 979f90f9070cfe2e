import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../core/dynamo';
import { PAYMENTS_TYPE, paymentsKey, STRIPE_EVENT_TYPE, stripeEventKey } from './payments.keys';

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
export type EventClaim = 'claimed' | 'done' | 'busy';

export interface PaymentsRepo {
  getRecord(userId: string): Promise<PaymentsRecord | undefined>;
  /**
   * Keeps `accountId` as the user's connected account unless one is kept already; answers the
   * account kept (the earlier one when two begins raced).
   */
  keepAccount(userId: string, accountId: string, country: string, now: Date): Promise<string>;
  /** Keeps `customerId` as the user's customer unless one is kept already; answers the one kept. */
  keepCustomer(userId: string, customerId: string, now: Date): Promise<string>;
  /**
   * Claims a webhook event for handling: `claimed` (new, or an earlier claim's lease ran out),
   * `done` (handled before), `busy` (another delivery is handling it now).
   */
  claimEvent(eventId: string, type: string, now: Date): Promise<EventClaim>;
  /** Marks a claimed event handled. */
  finishEvent(eventId: string, now: Date): Promise<void>;
  /** Gives a claim up after a failure, so Stripe's retry handles the event. */
  releaseEvent(eventId: string): Promise<void>;
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

    keepAccount: (userId, accountId, country, now) =>
      keepOnce(userId, 'stripe_account_id', accountId, { account_country: country }, now),

    keepCustomer: (userId, customerId, now) => keepOnce(userId, 'customer_id', customerId, {}, now),

    async claimEvent(eventId, type, now) {
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...stripeEventKey(eventId),
              type: STRIPE_EVENT_TYPE,
              event_type: type,
              state: 'processing',
              lease_until: now.getTime() + EVENT_LEASE_MS,
              ttl: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_S,
            },
            // New, or an earlier delivery's claim whose lease ran out (it crashed mid-way).
            ConditionExpression:
              'attribute_not_exists(pk) OR (#state = :processing AND lease_until < :now)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':processing': 'processing', ':now': now.getTime() },
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
        return found.Item?.state === 'done' ? 'done' : 'busy';
      }
    },

    async finishEvent(eventId, now) {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: stripeEventKey(eventId),
          UpdateExpression: 'SET #state = :done, done_at = :now REMOVE lease_until',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':done': 'done', ':now': now.toISOString() },
        }),
      );
    },

    async releaseEvent(eventId) {
      await doc
        .send(
          new DeleteCommand({
            TableName: tableName,
            Key: stripeEventKey(eventId),
            ConditionExpression: '#state = :processing',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':processing': 'processing' },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionalCheckFailed(error)) throw error;
        });
    },
  };
}
