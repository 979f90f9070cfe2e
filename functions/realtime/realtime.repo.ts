import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GUEST_USER_ID } from '../../shared/realtime/messages';
import {
  CONNECTION_TYPE,
  connectionKey,
  connectionPartition,
  SUBSCRIPTION_SK_PREFIX,
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
  putSubscription(subscription: SubscriptionRecord): Promise<void>;
  deleteSubscription(connectionId: string, topic: string): Promise<void>;
  countSubscriptions(connectionId: string): Promise<number>;
  listTopicSubscribers(topic: string): Promise<SubscriptionRecord[]>;
}

const BATCH_WRITE_MAX = 25;

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
    for (let i = 0; i < keys.length; i += BATCH_WRITE_MAX) {
      let requests: NonNullable<
        ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']
      >[string] = keys
        .slice(i, i + BATCH_WRITE_MAX)
        .map((key) => ({ DeleteRequest: { Key: key } }));
      for (let attempt = 0; requests.length > 0; attempt += 1) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
        const result = await doc.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
        );
        requests = result.UnprocessedItems?.[tableName] ?? [];
        if (attempt >= 8 && requests.length > 0) {
          throw new Error(`could not delete ${requests.length} live-channel items`);
        }
      }
    }
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

    async putSubscription(subscription) {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...subscriptionKey(subscription.connectionId, subscription.topic),
            ...topicSubscribersIndexKeys(subscription.topic, subscription.connectionId),
            type: SUBSCRIPTION_TYPE,
            ...subscription,
          },
        }),
      );
    },

    async deleteSubscription(connectionId, topic) {
      await doc.send(
        new DeleteCommand({ TableName: tableName, Key: subscriptionKey(connectionId, topic) }),
      );
    },

    async countSubscriptions(connectionId) {
      const result = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
          ExpressionAttributeValues: {
            ':pk': connectionPartition(connectionId),
            ':sub': SUBSCRIPTION_SK_PREFIX,
          },
          Select: 'COUNT',
        }),
      );
      return result.Count ?? 0;
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
