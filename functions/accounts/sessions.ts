import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import type { AuthContext } from '../core/auth';
import type { AccountStatus } from './accounts.repo';
import { sessionVerdict } from './sessions.rules';

/**
 * Sessions: the per-call check, logout, and the admins' block and unblock (issue 3 items 4, 11).
 * The table is authoritative (the per-call check reads it); Cognito is told too, so refresh
 * tokens stop working (AdminUserGlobalSignOut) and a blocked user cannot sign in
 * (AdminDisableUser; the login triggers also refuse `blocked` accounts with `login.errors.403`).
 * Logout and block also close the user's open live-channel connections (issue 8 §4), so a socket
 * opened before cannot receive the user's private events after.
 * Table first, then the live channel, then Cognito: a failure answers 500 and a retry repeats
 * every step (each is idempotent).
 */
export interface SessionsStore {
  /** The caller's account status (one strongly consistent read); undefined: no account. */
  status(userId: string): Promise<AccountStatus | undefined>;
  /** Sets `sessions_revoked_at`; false when there is no account. */
  revokeSessions(userId: string, at: string): Promise<boolean>;
  /** Sets `blocked` (and, when blocking, `sessions_revoked_at`); false when there is no account. */
  setBlocked(userId: string, blocked: boolean, at: string): Promise<boolean>;
}

/** The Cognito side (AdminUserGlobalSignOut, AdminDisableUser, AdminEnableUser). */
export interface SessionsDirectory {
  globalSignOut(userId: string): Promise<void>;
  disableUser(userId: string): Promise<void>;
  enableUser(userId: string): Promise<void>;
}

/** The live channel (functions/realtime closeUserConnections): the user's open sockets. */
export interface SessionsLiveChannel {
  /** Closes every open connection of the user and deletes their records. */
  closeUserConnections(userId: string): Promise<unknown>;
}

export interface SessionsDeps {
  store: SessionsStore;
  directory: SessionsDirectory;
  live: SessionsLiveChannel;
}

/** The per-call check the HTTP middleware runs for 'user' and 'admin' routes. */
export type SessionCheck = (auth: AuthContext) => Promise<void>;

export function createSessionCheck(
  status: (userId: string) => Promise<AccountStatus | undefined>,
): SessionCheck {
  return async (auth) => {
    const verdict = sessionVerdict(await status(auth.userId), auth.claims);
    if (verdict.ok) return;
    logger.info('session refused', { reason: verdict.reason });
    throw verdict.code === 'login.errors.403'
      ? new DomainError('login.errors.403', { message: 'Account temporally blocked.' })
      : new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
  };
}

export interface SessionView {
  userId: string;
  email: string | null;
  admin: boolean;
}

/** GET /api/session: the caller as the (already checked) token names them. */
export function sessionView(auth: AuthContext): SessionView {
  return { userId: auth.userId, email: auth.email ?? null, admin: auth.groups.includes('admin') };
}

export interface LoggedOut {
  userId: string;
  revokedAt: string;
}

/**
 * POST /api/session/logout: every session of the caller ends (the spec's logout revokes the
 * refresh token; AdminUserGlobalSignOut revokes all of them, and the per-call check refuses every
 * access token signed in before now). Idempotent.
 */
export async function logout(deps: SessionsDeps, userId: string, now: Date): Promise<LoggedOut> {
  const revokedAt = now.toISOString();
  if (!(await deps.store.revokeSessions(userId, revokedAt))) {
    throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
  }
  await deps.live.closeUserConnections(userId);
  await deps.directory.globalSignOut(userId);
  return { userId, revokedAt };
}

export interface BlockState {
  userId: string;
  blocked: boolean;
}

function sameUser(a: string, b: string): boolean {
  // Cognito matches usernames case-insensitively.
  return a.toLowerCase() === b.toLowerCase();
}

/** POST /api/admin/users/{userId}/block (admins). 409 for oneself, 404 for an unknown user. */
export async function blockUser(
  deps: SessionsDeps,
  input: { adminId: string; userId: string },
  now: Date,
): Promise<BlockState> {
  if (sameUser(input.adminId, input.userId)) {
    throw new DomainError('admin.errors.self_block', {
      message: 'An administrator cannot block their own account.',
    });
  }
  if (!(await deps.store.setBlocked(input.userId, true, now.toISOString()))) {
    throw new DomainError('users.errors.not_found', { message: 'User not found.' });
  }
  await deps.live.closeUserConnections(input.userId);
  await deps.directory.disableUser(input.userId);
  await deps.directory.globalSignOut(input.userId);
  return { userId: input.userId, blocked: true };
}

/** POST /api/admin/users/{userId}/unblock (admins). 404 for an unknown user. */
export async function unblockUser(
  deps: SessionsDeps,
  input: { userId: string },
  now: Date,
): Promise<BlockState> {
  if (!(await deps.store.setBlocked(input.userId, false, now.toISOString()))) {
    throw new DomainError('users.errors.not_found', { message: 'User not found.' });
  }
  await deps.directory.enableUser(input.userId);
  return { userId: input.userId, blocked: false };
}
