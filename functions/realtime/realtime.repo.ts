import {
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GUEST_USER_ID } from '../../shared/realtime/messages';
import { batchWriteAll, cancellationReasons } from '../core/dynamo';
import {
  CONNECTION_TYPE,
  connectionKey,
  connectionPartition,
  SUBSCRIPTION_TYPE,
  subscriptionKey,
  topicPartition,
  topicSubscribersIndexKeys,
  userConnectionsIndexKeys,
  userConnectionsPartition,
} from './realtime.keys';

/** A live-channel connection as stored. */
export interface ConnectionRecord {
  connectionId: string;
  /** The user, or GUEST_USER_ID. */
  userId: string;
  /** ISO 8601. */
  connectedAt: string;
  /** Epoch seconds. */
  ttl: number;
}

export interface SubscriptionRecord {
  connectionId: string;
  topic: string;
  ttl: number;
}

export interface RealtimeRepo {
  putConnection(connection: ConnectionRecord): Promise<void>;
  /** Sets a new ttl; false when the connection item is gone. */
  refreshConnection(connectionId: string, ttl: number): Promise<boolean>;
  /** Deletes the connection and its subscriptions. */
  deleteConnection(connectionId: string): Promise<void>;
  listUserConnections(userId: string): Promise<ConnectionRecord[]>;
  /**
   * Adds a subscription unless the connection already has `max` (atomic: the connection item's
   * `subscriptions` counter moves in the same transaction, conditioned on being below `max`, so a
   * burst of concurrent subscribes never overshoots). 'exists' when it was there already (nothing
   * changes); 'limit' when the connection is full (or gone).
   */
  addSubscription(
    subscription: SubscriptionRecord,
    max: number,
  ): Promise<'added' | 'exists' | 'limit'>;
  /** Removes a subscription and decrements the counter in one transaction; a no-op if absent. */
  deleteSubscription(connectionId: string, topic: string): Promise<void>;
  listTopicSubscribers(topic: string): Promise<SubscriptionRecord[]>;
}

/** Transactions lost to a concurrent one on the same connection item are tried again. */
const CONFLICT_RETRIES = 30;

async function withConflictRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      const conflict = cancellationReasons(error)?.some(
        (reason) => reason.Code === 'TransactionConflict',
      );
      if (!conflict || tries >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(200, 10 * 2 ** tries)),
      );
    }
  }
}

/** The realtime domain's only DynamoDB caller. */
export function createRealtimeRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): RealtimeRepo {
  const { doc, tableName } = deps;

  /** Every page of a Query (these lists are small: a user's tabs, a page's viewers). */
  const queryAll = async (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new QueryCommand({
          TableName: tableName,
          ...input,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return items;
  };

  const deleteKeys = async (keys: { pk: string; sk: string }[]) => {
    await batchWriteAll(
      doc,
      tableName,
      keys.map((key) => ({ DeleteRequest: { Key: key } })),
    );
  };

  return {
    async putConnection(connection) {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...connectionKey(connection.connectionId),
            ...(connection.userId === GUEST_USER_ID
              ? {}
              : userConnectionsIndexKeys(connection.userId, connection.connectionId)),
            type: CONNECTION_TYPE,
            ...connection,
          },
        }),
      );
    },

    async refreshConnection(connectionId, ttl) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: connectionKey(connectionId),
            UpdateExpression: 'SET #ttl = :ttl',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':ttl': ttl },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    async deleteConnection(connectionId) {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': connectionPartition(connectionId) },
        ProjectionExpression: 'pk, sk',
      });
      await deleteKeys(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
    },

    async listUserConnections(userId) {
      if (userId === GUEST_USER_ID) return [];
      const items = await queryAll({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': userConnectionsPartition(userId) },
      });
      return items.map((item) => ({
        connectionId: String(item.connectionId),
        userId: String(item.userId),
        connectedAt: String(item.connectedAt),
        ttl: Number(item.ttl),
      }));
    },

    async addSubscription(subscription, max) {
      const items = [
        {
          Update: {
            TableName: tableName,
            Key: connectionKey(subscription.connectionId),
            UpdateExpression: 'SET subscriptions = if_not_exists(subscriptions, :zero) + :one',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(subscriptions) OR subscriptions < :max)',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max },
          },
        },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...subscriptionKey(subscription.connectionId, subscription.topic),
              ...topicSubscribersIndexKeys(subscription.topic, subscription.connectionId),
              type: SUBSCRIPTION_TYPE,
              ...subscription,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      return withConflictRetries(async () => {
        try {
          await doc.send(new TransactWriteCommand({ TransactItems: items }));
          return 'added' as const;
        } catch (error) {
          const reasons = cancellationReasons(error);
          if (reasons?.[1]?.Code === 'ConditionalCheckFailed') return 'exists' as const;
          if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return 'limit' as const;
          throw error;
        }
      });
    },

    async deleteSubscription(connectionId, topic) {
      await withConflictRetries(async () => {
        try {
          await doc.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Delete: {
                    TableName: tableName,
                    Key: subscriptionKey(connectionId, topic),
                    ConditionExpression: 'attribute_exists(pk)',
                  },
                },
                {
                  Update: {
                    TableName: tableName,
                    Key: connectionKey(connectionId),
                    UpdateExpression: 'SET subscriptions = subscriptions - :one',
                    ConditionExpression: 'attribute_exists(pk) AND subscriptions > :zero',
                    ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
                  },
                },
              ],
            }),
          );
        } catch (error) {
          const reasons = cancellationReasons(error);
          if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return; // not subscribed
          if (reasons?.[1]?.Code === 'ConditionalCheckFailed') {
            // The connection is gone (or predates the counter): drop the subscription alone.
            await doc.send(
              new DeleteCommand({
                TableName: tableName,
                Key: subscriptionKey(connectionId, topic),
              }),
            );
            return;
          }
          throw error;
        }
      });
    },

    async listTopicSubscribers(topic) {
      const items = await queryAll({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': topicPartition(topic) },
      });
      return items.map((item) => ({
        connectionId: String(item.connectionId),
        topic: String(item.topic),
        ttl: Number(item.ttl),
      }));
    },
  };
}
