import type { AccountStatus } from './accounts.repo';

/**
 * The per-call session rule (issue 3 items 4 and 11). API Gateway's JWT authorizer, and the local
 * one, accept any unexpired token the pool signed; they see neither logout nor a blocked account.
 * So every 'user'/'admin' call also reads the caller's account (one strongly consistent GetItem)
 * and this rule decides:
 * - no account → 401 `unauthenticated`;
 * - blocked → 403 `login.errors.403` ("Account temporally blocked.");
 * - the token's sign-in (`auth_time`, else `iat`; seconds) is before `sessions_revoked_at`
 *   (logout, block) → 401 `unauthenticated`. Claims arrive as strings from API Gateway.
 * A token issued in the same second as the revocation counts as before it (refused): seconds are
 * floored, so refusing is the only safe answer; a new sign-in a second later is accepted.
 */
export type SessionVerdict =
  { ok: true } | { ok: false; code: 'unauthenticated' | 'login.errors.403'; reason: string };

/** Seconds since the epoch of the token's sign-in, or undefined when the claims carry none. */
export function tokenSignInSeconds(claims: Record<string, unknown>): number | undefined {
  for (const name of ['auth_time', 'iat']) {
    const raw = claims[name];
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
    if (Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}

export function sessionVerdict(
  status: AccountStatus | undefined,
  claims: Record<string, unknown>,
): SessionVerdict {
  if (status === undefined) return { ok: false, code: 'unauthenticated', reason: 'no account' };
  if (status.blocked) return { ok: false, code: 'login.errors.403', reason: 'blocked' };
  if (status.sessionsRevokedAt !== undefined) {
    const revokedMs = Date.parse(status.sessionsRevokedAt);
    const signedInSeconds = tokenSignInSeconds(claims);
    if (Number.isNaN(revokedMs)) return { ok: true };
    if (signedInSeconds === undefined || signedInSeconds <= Math.floor(revokedMs / 1000)) {
      return { ok: false, code: 'unauthenticated', reason: 'revoked' };
    }
  }
  return { ok: true };
}
