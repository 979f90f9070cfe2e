import { batchWriteAll } from '../../core/dynamo';
import { dynamoDocumentClient } from '../../core/clients';
import { readEnv } from '../../core/env';
import { FOLLOW_TYPE, followersIndexKeys, followKey } from '../follows.keys';

/**
 * For integration tests and benches on the twin: follow edges written directly, 25 per
 * BatchWriteItem (10,000 followers in seconds, without 10,000 sign-ups). Only the edges: the
 * followed profile's followers_counter is not moved (nothing here reads it).
 */
export async function putFollowEdges(
  followedId: string,
  followerIds: readonly string[],
  options: { concurrency?: number; now?: Date } = {},
): Promise<void> {
  const env = readEnv();
  const doc = dynamoDocumentClient(env);
  const createdAt = (options.now ?? new Date()).toISOString();
  const batches: Record<string, unknown>[][] = [];
  for (let index = 0; index < followerIds.length; index += 25) {
    batches.push(
      followerIds.slice(index, index + 25).map((followerId) => ({
        PutRequest: {
          Item: {
            ...followKey(followerId, followedId),
            ...followersIndexKeys(followerId, followedId),
            type: FOLLOW_TYPE,
            follower: followerId,
            followed: followedId,
            created_at: createdAt,
          },
        },
      })),
    );
  }
  const write = (requests: Record<string, unknown>[]) =>
    batchWriteAll(doc, env.tableName, requests);
  const queue = [...batches];
  const worker = async () => {
    for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) await write(batch);
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
}
