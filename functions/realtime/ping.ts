import { connectionTtl } from './realtime.rules';
import type { RealtimeRepo } from './realtime.repo';
import type { ConnectionSender } from './realtime.sender';
import { sendMessage } from './publish';

export interface ConnectionRef {
  connectionId: string;
  /** Epoch ms. */
  connectedAt: number;
}

/**
 * `ping` (every 120 s from a client): keeps the connection's item alive and answers `pong`. When
 * the item is gone (expired or deleted), nothing could reach this connection any more: it is
 * closed, and the client's reconnect (1 s later) registers it again.
 */
export async function ping(
  deps: { repo: Pick<RealtimeRepo, 'refreshConnection'>; sender: ConnectionSender },
  connection: ConnectionRef,
  now: Date,
): Promise<'pong' | 'reconnect'> {
  const alive = await deps.repo.refreshConnection(
    connection.connectionId,
    connectionTtl(connection.connectedAt, now),
  );
  if (!alive) {
    await deps.sender.disconnect(connection.connectionId);
    return 'reconnect';
  }
  await sendMessage(deps.sender, connection.connectionId, { type: 'pong' }, now);
  return 'pong';
}
