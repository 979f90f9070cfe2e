import type { RealtimeRepo } from './realtime.repo';

/** `$disconnect`: forgets the connection and its subscriptions. */
export async function disconnect(
  deps: { repo: Pick<RealtimeRepo, 'deleteConnection'> },
  request: { connectionId: string },
): Promise<void> {
  await deps.repo.deleteConnection(request.connectionId);
}
