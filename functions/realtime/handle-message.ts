import type { ErrorCode } from '../../shared/errors/registry';
import { clientMessageSchema } from '../../shared/realtime/messages';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION, subscriptionTtl } from './realtime.rules';
import type { RealtimeRepo } from './realtime.repo';
import type { ConnectionSender } from './realtime.sender';
import { sendMessage } from './publish';
import { ping, type ConnectionRef } from './ping';

type Deps = {
  repo: Pick<RealtimeRepo, 'addSubscription' | 'deleteSubscription' | 'refreshConnection'>;
  sender: ConnectionSender;
};

/**
 * `$default`: the client's messages other than `ping` (spec 001 §7): subscribe to / unsubscribe
 * from a topic, answered `subscribed`/`unsubscribed`; anything else is answered with an `error`
 * message (invalid_json, invalid_request) and changes nothing.
 */
export async function handleMessage(
  deps: Deps,
  request: ConnectionRef & { body: string | undefined },
  now: Date,
): Promise<void> {
  const { connectionId } = request;
  const fail = (code: ErrorCode, message: string) =>
    sendMessage(deps.sender, connectionId, { type: 'error', code, message }, now);

  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body ?? '');
  } catch {
    await fail('invalid_json', 'The message is not valid JSON.');
    return;
  }
  const result = clientMessageSchema.safeParse(parsed);
  if (!result.success) {
    const action = (parsed as { action?: unknown } | null)?.action;
    await fail(
      'invalid_request',
      typeof action === 'string' && ['subscribe', 'unsubscribe', 'ping'].includes(action)
        ? 'The topic is not valid.'
        : 'Unknown action.',
    );
    return;
  }
  const message = result.data;
  switch (message.action) {
    case 'ping':
      // The ping route normally takes these; answered the same if one lands here.
      await ping(deps, request, now);
      return;
    case 'subscribe': {
      const outcome = await deps.repo.addSubscription(
        { connectionId, topic: message.topic, ttl: subscriptionTtl(request.connectedAt) },
        MAX_SUBSCRIPTIONS_PER_CONNECTION,
      );
      if (outcome === 'limit') {
        await fail('invalid_request', 'Too many topics on one connection.');
        return;
      }
      await sendMessage(
        deps.sender,
        connectionId,
        { type: 'subscribed', topic: message.topic },
        now,
      );
      return;
    }
    case 'unsubscribe':
      await deps.repo.deleteSubscription(connectionId, message.topic);
      await sendMessage(
        deps.sender,
        connectionId,
        { type: 'unsubscribed', topic: message.topic },
        now,
      );
      return;
  }
}
