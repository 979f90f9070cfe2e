import { GUEST_USER_ID } from '../../shared/realtime/messages';
import type { ConnectionRecord, RealtimeRepo, SubscriptionRecord } from './realtime.repo';
import type { ConnectionSender } from './realtime.sender';

/** An in-memory RealtimeRepo for unit tests (same semantics, no DynamoDB). */
export function memoryRealtimeRepo(): RealtimeRepo & {
  connections: Map<string, ConnectionRecord>;
  subscriptions: Map<string, SubscriptionRecord>;
} {
  const connections = new Map<string, ConnectionRecord>();
  const subscriptions = new Map<string, SubscriptionRecord>();
  const subKey = (connectionId: string, topic: string) => `${connectionId}|${topic}`;
  return {
    connections,
    subscriptions,
    async putConnection(connection) {
      connections.set(connection.connectionId, { ...connection });
    },
    async refreshConnection(connectionId, ttl) {
      const found = connections.get(connectionId);
      if (found === undefined) return false;
      found.ttl = ttl;
      return true;
    },
    async deleteConnection(connectionId) {
      connections.delete(connectionId);
      for (const [key, sub] of subscriptions) {
        if (sub.connectionId === connectionId) subscriptions.delete(key);
      }
    },
    async listUserConnections(userId) {
      if (userId === GUEST_USER_ID) return [];
      return [...connections.values()].filter((c) => c.userId === userId).map((c) => ({ ...c }));
    },
    async addSubscription(subscription, max) {
      const key = subKey(subscription.connectionId, subscription.topic);
      if (subscriptions.has(key)) return 'exists';
      const count = [...subscriptions.values()].filter(
        (s) => s.connectionId === subscription.connectionId,
      ).length;
      if (count >= max) return 'limit';
      subscriptions.set(key, { ...subscription });
      return 'added';
    },
    async deleteSubscription(connectionId, topic) {
      subscriptions.delete(subKey(connectionId, topic));
    },
    async listTopicSubscribers(topic) {
      return [...subscriptions.values()].filter((s) => s.topic === topic).map((s) => ({ ...s }));
    },
  };
}

/** A ConnectionSender for unit tests: records what is sent; ids in `gone` answer 410. */
export function memorySender(): ConnectionSender & {
  sent: { connectionId: string; data: unknown }[];
  disconnected: string[];
  gone: Set<string>;
} {
  const sent: { connectionId: string; data: unknown }[] = [];
  const disconnected: string[] = [];
  const gone = new Set<string>();
  return {
    sent,
    disconnected,
    gone,
    async send(connectionId, data) {
      if (gone.has(connectionId)) return 'gone';
      sent.push({ connectionId, data: JSON.parse(data) as unknown });
      return 'sent';
    },
    async disconnect(connectionId) {
      if (gone.has(connectionId)) return 'gone';
      disconnected.push(connectionId);
      return 'sent';
    },
  };
}
