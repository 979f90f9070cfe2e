/**
 * Realtime (the live channel): key builders. Access patterns:
 *
 * | pattern                                  | key condition                                   | index |
 * |------------------------------------------|-------------------------------------------------|-------|
 * | connection by id                         | pk = WSCONN#<connectionId>, sk = CONNECTION     | table |
 * | everything of a connection (disconnect)  | pk = WSCONN#<connectionId>                      | table |
 * | subscriptions of a connection            | pk = WSCONN#<connectionId>, sk begins_with SUB# | table |
 * | connections of a user                    | gsi1pk = WSUSER#<userId>                        | gsi1  |
 * | subscribers of a topic                   | gsi1pk = WSTOPIC#<topic>                        | gsi1  |
 *
 * Every item carries a `ttl` (epoch seconds): API Gateway may miss a `$disconnect`, and a
 * connection lives at most 2 h anyway. Readers skip items past their ttl (DynamoDB deletes them
 * lazily). Guest connections (`<annon>`) have no gsi1 keys: nothing is published to guests as a
 * user, and one partition for every guest would be hot.
 */
export const CONNECTION_TYPE = 'ws_connection';
export const SUBSCRIPTION_TYPE = 'ws_subscription';

const CONNECTION_PREFIX = 'WSCONN#';
export const SUBSCRIPTION_SK_PREFIX = 'SUB#';

export function connectionPartition(connectionId: string): string {
  return `${CONNECTION_PREFIX}${connectionId}`;
}

export function connectionKey(connectionId: string): { pk: string; sk: string } {
  return { pk: connectionPartition(connectionId), sk: 'CONNECTION' };
}

export function userConnectionsIndexKeys(
  userId: string,
  connectionId: string,
): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: userConnectionsPartition(userId), gsi1sk: connectionPartition(connectionId) };
}

export function userConnectionsPartition(userId: string): string {
  return `WSUSER#${userId}`;
}

export function subscriptionKey(connectionId: string, topic: string): { pk: string; sk: string } {
  return { pk: connectionPartition(connectionId), sk: `${SUBSCRIPTION_SK_PREFIX}${topic}` };
}

export function topicSubscribersIndexKeys(
  topic: string,
  connectionId: string,
): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: topicPartition(topic), gsi1sk: connectionPartition(connectionId) };
}

export function topicPartition(topic: string): string {
  return `WSTOPIC#${topic}`;
}
