/**
 * Lifetimes of the live channel's items, from API Gateway's limits: a connection idles out after
 * 10 minutes without a client message and lasts at most 2 hours. Clients ping every 120 s, which
 * refreshes the connection's ttl; a subscription cannot outlive its connection's 2 hours.
 */
export const CONNECTION_IDLE_MS = 10 * 60_000;
export const CONNECTION_MAX_MS = 2 * 3_600_000;
/** Slack for clock differences between API Gateway and Lambda. */
const TTL_GRACE_MS = 5 * 60_000;
/** Topics one connection may follow at once (a page follows one or two). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 50;

const toEpochSeconds = (ms: number) => Math.ceil(ms / 1000);

/** ttl of a connection item seen alive at `now`. */
export function connectionTtl(connectedAtMs: number, now: Date): number {
  const idleEnd = now.getTime() + CONNECTION_IDLE_MS;
  const hardEnd = connectedAtMs + CONNECTION_MAX_MS;
  return toEpochSeconds(Math.min(idleEnd, hardEnd) + TTL_GRACE_MS);
}

/** ttl of a subscription: the end of its connection's longest possible life. */
export function subscriptionTtl(connectedAtMs: number): number {
  return toEpochSeconds(connectedAtMs + CONNECTION_MAX_MS + TTL_GRACE_MS);
}

export function isExpired(ttl: number, now: Date): boolean {
  return ttl * 1000 <= now.getTime();
}
