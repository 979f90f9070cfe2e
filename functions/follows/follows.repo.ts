import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '../core/cursor';
import {
  COUNTER_PROJECTION,
  counterReadKey,
  counterStateOf,
  followersCounterUpdate,
  type CounterState,
} from '../profiles/index';
import {
  FOLLOW_TYPE,
  FOLLOWERS_INDEX,
  followersIndexKeys,
  followersPartition,
  followKey,
} from './follows.keys';
import { cancellationReasons } from '../core/dynamo';
import { DomainError } from '../core/errors';

/**
 * 'done': the edge and the counter changed together. 'noop': the edge already was as asked (a
 * double follow or unfollow), nothing changed. 'stale': the counter moved since it was read (or
 * a concurrent transaction held the item): read again and retry.
 */
export type WriteOutcome = 'done' | 'noop' | 'stale';

export interface FollowsRepo {
  /** The followed user's counter state; undefined when there is no such profile. */
  getCounter(userId: string): Promise<CounterState | undefined>;
  writeEdge(input: {
    followerId: string;
    followedId: string;
    follow: boolean;
    state: CounterState;
    now: Date;
  }): Promise<WriteOutcome>;
  isFollowing(followerId: string, followedId: string): Promise<boolean>;
  /**
   * One page of a user's followers' ids (gsi2, ordered by follower id; eventually consistent).
   * `nextCursor` is null after the last page.
   */
  listFollowerIds(
    followedId: string,
    page: { cursor: string | undefined; limit: number },
  ): Promise<{ ids: string[]; nextCursor: string | null }>;
}

const FOLLOWERS_CURSOR = 'followers';
/** A gsi2 query's LastEvaluatedKey: the table keys and the index keys. */
const FOLLOWERS_CURSOR_KEYS = ['pk', 'sk', 'gsi2pk', 'gsi2sk'] as const;

/** The follows domain's only DynamoDB caller. */
export function createFollowsRepo(deps: {
  doc: DynamoDBDocumentClient;
  tableName: string;
}): FollowsRepo {
  const { doc, tableName: TableName } = deps;
  return {
    async getCounter(userId) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: counterReadKey(userId),
          ProjectionExpression: COUNTER_PROJECTION,
          ConsistentRead: true,
        }),
      );
      return result.Item === undefined ? undefined : counterStateOf(result.Item);
    },

    async writeEdge({ followerId, followedId, follow, state, now }) {
      const key = followKey(followerId, followedId);
      const edge = follow
        ? {
            Put: {
              TableName,
              Item: {
                ...key,
                ...followersIndexKeys(followerId, followedId),
                type: FOLLOW_TYPE,
                follower: followerId,
                followed: followedId,
                created_at: now.toISOString(),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          }
        : { Delete: { TableName, Key: key, ConditionExpression: 'attribute_exists(pk)' } };
      const counter = {
        Update: { TableName, ...followersCounterUpdate(followedId, state, follow ? 1 : -1) },
      };
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: [edge, counter] }));
        return 'done';
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (reasons === undefined) throw error;
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'noop';
        if (
          reasons[1]?.Code === 'ConditionalCheckFailed' ||
          reasons.some((reason) => reason.Code === 'TransactionConflict')
        ) {
          return 'stale';
        }
        throw error;
      }
    },

    async isFollowing(followerId, followedId) {
      const result = await doc.send(
        new GetCommand({
          TableName,
          Key: followKey(followerId, followedId),
          ProjectionExpression: 'pk',
        }),
      );
      return result.Item !== undefined;
    },

    async listFollowerIds(followedId, { cursor, limit }) {
      const startKey = decodeCursor(FOLLOWERS_CURSOR, cursor, FOLLOWERS_CURSOR_KEYS);
      // A cursor of another user's followers is refused like any malformed one.
      if (startKey !== undefined && startKey.gsi2pk !== followersPartition(followedId)) {
        throw new DomainError('invalid_request', {
          message: 'The cursor is not valid for this list.',
          fields: { cursor: 'forms.validation.cursor' },
        });
      }
      const result = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: FOLLOWERS_INDEX,
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': followersPartition(followedId) },
          // The follower id is the index sort key; the read is charged by item size anyway.
          ProjectionExpression: 'gsi2sk',
          Limit: limit,
          ExclusiveStartKey: startKey,
        }),
      );
      return {
        ids: (result.Items ?? []).map((item) => String(item.gsi2sk)),
        nextCursor: encodeCursor(FOLLOWERS_CURSOR, result.LastEvaluatedKey),
      };
    },
  };
}
