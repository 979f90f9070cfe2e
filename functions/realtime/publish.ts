import { newId } from '../core/ids';
import { logger } from '../core/logger';
import {
  GUEST_USER_ID,
  serverMessageSchema,
  type ServerMessage,
  type ServerMessageDraft,
  type Topic,
} from '../../shared/realtime/messages';
import { isExpired } from './realtime.rules';
import type { RealtimeRepo } from './realtime.repo';
import type { ConnectionSender, SendOutcome } from './realtime.sender';
import { realtimeDeps } from './realtime.deps';

/**
 * Publishing on the live channel: to every connection of a user (the spec's "user's own channel")
 * or to every subscriber of a topic (the spec's multicast, e.g. an offering page). Other domains
 * call publishToUser/publishToTopic; connections that answer 410 are deleted on the way.
 */
export interface PublishDeps {
  repo: Pick<RealtimeRepo, 'listUserConnections' | 'listTopicSubscribers' | 'deleteConnection'>;
  sender: ConnectionSender;
  now?: () => Date;
}

export interface PublishResult {
  /** The message id every recipient got. */
  id: string;
  delivered: number;
  /** Connections that were gone (and are now deleted). */
  gone: number;
  /** Connections the send failed for otherwise (logged). */
  failed: number;
}

const FAN_OUT_CONCURRENCY = 10;

/** The wire form of a draft: an id (unless given), the topic if any, validated. */
export function buildMessage(draft: ServerMessageDraft, now: Date, topic?: Topic): ServerMessage {
  return serverMessageSchema.parse({
    ...draft,
    id: draft.id ?? newId(now),
    ...(topic === undefined ? {} : { topic }),
  });
}

/** Sends one message to one connection (replies of the channel's own routes). */
export async function sendMessage(
  sender: ConnectionSender,
  connectionId: string,
  draft: ServerMessageDraft,
  now: Date,
): Promise<SendOutcome> {
  return sender.send(connectionId, JSON.stringify(buildMessage(draft, now)));
}

async function fanOut(
  deps: PublishDeps,
  connectionIds: string[],
  message: ServerMessage,
): Promise<PublishResult> {
  const data = JSON.stringify(message);
  const result: PublishResult = { id: message.id, delivered: 0, gone: 0, failed: 0 };
  const queue = [...new Set(connectionIds)];
  const worker = async () => {
    for (
      let connectionId = queue.shift();
      connectionId !== undefined;
      connectionId = queue.shift()
    ) {
      try {
        if ((await deps.sender.send(connectionId, data)) === 'sent') {
          result.delivered += 1;
        } else {
          result.gone += 1;
          await deps.repo.deleteConnection(connectionId);
        }
      } catch (error) {
        result.failed += 1;
        logger.warn('live channel send failed', {
          connectionId,
          messageType: message.type,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FAN_OUT_CONCURRENCY, queue.length) }, worker));
  return result;
}

/** Sends a message to every live connection of a user. */
export async function publishToUser(
  userId: string,
  message: ServerMessageDraft,
  deps: PublishDeps = realtimeDeps(),
): Promise<PublishResult> {
  if (userId === GUEST_USER_ID || userId === '') {
    throw new RangeError('publishToUser needs a user id, not a guest');
  }
  const now = (deps.now ?? (() => new Date()))();
  const wire = buildMessage(message, now);
  const connections = await deps.repo.listUserConnections(userId);
  const live = connections.filter((connection) => !isExpired(connection.ttl, now));
  return fanOut(
    deps,
    live.map((connection) => connection.connectionId),
    wire,
  );
}

/** Sends a message to every connection subscribed to a topic; it carries the topic. */
export async function publishToTopic(
  topic: Topic,
  message: ServerMessageDraft,
  deps: PublishDeps = realtimeDeps(),
): Promise<PublishResult> {
  const now = (deps.now ?? (() => new Date()))();
  const wire = buildMessage(message, now, topic);
  const subscribers = await deps.repo.listTopicSubscribers(topic);
  const live = subscribers.filter((subscription) => !isExpired(subscription.ttl, now));
  return fanOut(
    deps,
    live.map((subscription) => subscription.connectionId),
    wire,
  );
}

/**
 * publishToUser for callers whose own work is done and must not fail because a tab could not be
 * told (a live event is a hint: the client refetches on reconnect): a failure is logged.
 */
export async function publishToUserQuietly(
  userId: string,
  message: ServerMessageDraft,
  deps?: PublishDeps,
): Promise<void> {
  try {
    await publishToUser(userId, message, deps);
  } catch (error) {
    logger.warn('live event not sent', { userId, type: message.type, error: String(error) });
  }
}

export interface CloseDeps {
  repo: Pick<RealtimeRepo, 'listUserConnections' | 'deleteConnection'>;
  sender: ConnectionSender;
}

/**
 * Logout and block (functions/accounts): closes every open connection of the user from the
 * server side (`@connections` DeleteConnection; the twin's gateway the same) and deletes its
 * connection and subscription items, so nothing more reaches a socket whose session ended. A
 * connection already gone (410) is only forgotten; a failed close is logged and its records are
 * deleted anyway (nothing is published to a connection without records).
 */
export async function closeUserConnections(
  userId: string,
  deps: CloseDeps = realtimeDeps(),
): Promise<{ closed: number }> {
  if (userId === GUEST_USER_ID || userId === '') return { closed: 0 };
  const connections = await deps.repo.listUserConnections(userId);
  let closed = 0;
  await Promise.all(
    connections.map(async ({ connectionId }) => {
      try {
        if ((await deps.sender.disconnect(connectionId)) === 'sent') closed += 1;
      } catch (error) {
        logger.warn('live channel close failed', {
          connectionId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      await deps.repo.deleteConnection(connectionId);
    }),
  );
  return { closed };
}
