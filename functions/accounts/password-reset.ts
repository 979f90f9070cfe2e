import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import type { PasswordResetDone, PasswordResetRequested } from '../../shared/schemas/accounts';
import type { PasswordResetStore } from './accounts.repo';
import type { IdentityDirectory } from './identity';
import type { ResetMailer } from './messages';

/**
 * Password recovery (spec 001 §2 /session/forgot and /password/reset/:token?, §7 password/email
 * and password/reset), only while the passwordLogin switch is on (404 `not_found` otherwise).
 *
 * Request: always the same answer whether or not the e-mail belongs to an account (no
 * enumeration), after at least `minMs` (similar timing). For an account, a single-use token (32
 * random bytes, base64url) is e-mailed as `<web origin>/password/reset/<token>`; the table keeps
 * only its SHA-256, with an explicit expiry (1 hour, checked in code) and a `ttl`. Requests are
 * limited per e-mail (counted for every e-mail, so the limit reveals nothing either).
 *
 * Reset: the token is consumed atomically (conditional delete: of two concurrent resets with one
 * token exactly one succeeds), then the Cognito password is set and every session of the user is
 * revoked (the sessions domain's logout use case).
 */
export const RESET_RULES = {
  tokenBytes: 32,
  validityMs: 3_600_000,
  /** Requests per e-mail per clock hour. */
  maxRequestsPerHour: 5,
  /** Both answers of a request take at least this long. */
  minMs: 300,
} as const;

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface PasswordResetDeps {
  store: PasswordResetStore;
  identity: IdentityDirectory;
  mailer: ResetMailer;
  /** Ends every session of a user (the sessions domain's logout). */
  revokeSessions: (userId: string, now: Date) => Promise<void>;
  /** Origin of the web app (WEB_ORIGIN): the link's base. */
  webOrigin: string;
  /** The passwordLogin switch, read at call time. */
  passwordLogin: boolean;
  /** Minimum duration of a request's answer (RESET_RULES.minMs; 0 in unit tests). */
  minMs?: number;
  newToken?: () => string;
  sleep?: (ms: number) => Promise<void>;
  /** Wall clock for the timing floor (not the domain's `now`). */
  elapsedSince?: (started: number) => number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newResetToken(): string {
  return randomBytes(RESET_RULES.tokenBytes).toString('base64url');
}

/** `2026-11-22T10`: the clock hour the request counter belongs to. */
export function hourBucket(now: Date): string {
  return now.toISOString().slice(0, 13);
}

export function resetLink(webOrigin: string, token: string): string {
  return `${webOrigin.replace(/\/+$/, '')}/password/reset/${token}`;
}

function requireSwitch(deps: PasswordResetDeps): void {
  if (!deps.passwordLogin) {
    throw new DomainError('not_found', { message: 'This page could not be found' });
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** POST /api/password/email/{email}. */
export async function requestPasswordReset(
  deps: PasswordResetDeps,
  input: { email: string },
  now: Date,
): Promise<PasswordResetRequested> {
  requireSwitch(deps);
  const started = Date.now();
  const email = input.email.toLowerCase();
  const expiresMs = now.getTime() + RESET_RULES.validityMs;
  const count = await deps.store.countRequest({
    email,
    hourBucket: hourBucket(now),
    ttl: Math.ceil((now.getTime() + 2 * RESET_RULES.validityMs) / 1000),
  });
  if (count > RESET_RULES.maxRequestsPerHour) {
    throw new DomainError('rate_limited', {
      message: 'Too many requests for this e-mail. Try again later.',
    });
  }
  const owner = await deps.store.emailOwner(email);
  const account = owner === undefined ? undefined : await deps.store.getAccount(owner);
  if (account !== undefined) {
    const token = (deps.newToken ?? newResetToken)();
    await deps.store.putToken({
      tokenHash: hashToken(token),
      userId: account.id,
      expiresAt: new Date(expiresMs).toISOString(),
      ttl: Math.ceil(expiresMs / 1000),
    });
    await deps.mailer.sendResetLink({ to: account.email, link: resetLink(deps.webOrigin, token) });
  }
  const elapsed = (deps.elapsedSince ?? ((at: number) => Date.now() - at))(started);
  const wait = (deps.minMs ?? RESET_RULES.minMs) - elapsed;
  if (wait > 0) await (deps.sleep ?? defaultSleep)(wait);
  return { requested: true };
}

function tokenInvalid(): DomainError {
  return new DomainError('password.errors.token_invalid', {
    message: 'This password reset link is invalid, expired or already used.',
  });
}

/** POST /api/password/reset {password, token}. */
export async function resetPassword(
  deps: PasswordResetDeps,
  input: { password: string; token: string },
  now: Date,
): Promise<PasswordResetDone> {
  requireSwitch(deps);
  if (!TOKEN_PATTERN.test(input.token)) throw tokenInvalid();
  const userId = await deps.store.consumeToken(hashToken(input.token), now);
  if (userId === undefined) throw tokenInvalid();
  try {
    await deps.identity.setPassword({ username: userId, password: input.password });
  } catch (error) {
    // The token is spent: the user asks for a new link (never log the password).
    logger.error('password reset: setting the password failed', error as Error);
    throw new DomainError('unavailable', {
      message: 'The password could not be changed. Ask for a new link and try again.',
      cause: error,
    });
  }
  await deps.revokeSessions(userId, now);
  return { reset: true };
}
