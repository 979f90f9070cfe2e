import { createHash } from 'node:crypto';
import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import { requireSameRequest } from '../core/idempotency';
import type { Registered, RegisterUser, UniqueField } from '../../shared/schemas/accounts';
import { newProfileItem } from '../profiles/index';
import type { AccountRecord, AccountsRepo } from './accounts.repo';
import { ADMIN_GROUP, type IdentityDirectory } from './identity';

/** Replays of a sign-up with the same Idempotency-Key answer the first result for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface RegisterDeps {
  repo: AccountsRepo;
  identity: IdentityDirectory;
  adminEmails: readonly string[];
  newId: (now: Date) => string;
  /** The passwordLogin switch, read at call time (shared/switches.ts); absent: off. */
  passwordLogin?: boolean;
}

/**
 * The idempotency fingerprint of a sign-up body. The plain password never enters it (nor the
 * table, nor a log): only its SHA-256 does, so a replay with another password is still a
 * different body. A body without a password fingerprints exactly as before the switch existed.
 */
export function fingerprintOf(user: RegisterUser): string {
  const { password, ...fields } = user;
  const hashed =
    password === undefined
      ? fields
      : { ...fields, password_sha256: createHash('sha256').update(password).digest('hex') };
  const ordered = Object.fromEntries(Object.entries(hashed).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}

/**
 * The password rule of the switch: required while passwordLogin is on, refused while it is off
 * (a client sending one would otherwise believe it can sign in with it). 400 on `user.password`.
 */
export function checkPasswordSwitch(user: RegisterUser, passwordLogin: boolean): void {
  if (passwordLogin && user.password === undefined) {
    throw new DomainError('invalid_request', {
      message: 'The request body is not valid.',
      fields: { 'user.password': 'forms.validation.required' },
    });
  }
  if (!passwordLogin && user.password !== undefined) {
    throw new DomainError('invalid_request', {
      message: 'Passwords are not used by this deployment: omit user.password.',
      fields: { 'user.password': 'forms.validation.invalid' },
    });
  }
}

export function isAdminEmail(email: string, adminEmails: readonly string[]): boolean {
  return adminEmails.includes(email.toLowerCase());
}

async function ensureIdentity(
  deps: RegisterDeps,
  result: Registered,
  password: string | undefined,
): Promise<void> {
  await deps.identity.createUser({
    username: result.id,
    email: result.email,
    phone: result.phone,
    nick: result.nick,
  });
  if (password !== undefined) await deps.identity.setPassword({ username: result.id, password });
  if (isAdminEmail(result.email, deps.adminEmails)) {
    await deps.identity.addToGroup({ username: result.id, group: ADMIN_GROUP });
  }
}

/**
 * Sign-up (spec 001 §7 users/register). The table first: guards (nick, e-mail, phone), the
 * account and the profile in one transaction, so concurrent sign-ups for the same nick, e-mail or
 * phone give exactly one account (409 naming the taken fields for the others). Then the Cognito
 * user (username = our id). If Cognito fails, the table items are removed again (compensation)
 * and the call answers 503; nothing half-made remains.
 *
 * With an Idempotency-Key, a retry of the same body answers the first result (re-running the
 * Cognito step, which is idempotent, in case the first call died before it); the same key with a
 * different body is 409 `idempotency.key_reused`.
 *
 * While the passwordLogin switch is on, `user.password` is required and set on the Cognito user
 * (AdminSetUserPassword, permanent) as part of the identity step, so a failure there is
 * compensated like any other; while it is off a password is refused (checkPasswordSwitch).
 */
export async function register(
  deps: RegisterDeps,
  input: { user: RegisterUser; idempotencyKey: string | undefined },
  now: Date,
): Promise<{ created: boolean; result: Registered }> {
  const { user, idempotencyKey } = input;
  checkPasswordSwitch(user, deps.passwordLogin === true);
  const fingerprint = fingerprintOf(user);
  const id = deps.newId(now);
  const account: AccountRecord = {
    id,
    nick: user.nick,
    email: user.email,
    phone: user.phone,
    user_option: user.user_option,
    email_verified: false,
    phone_verified: false,
    blocked: false,
    is_admin: isAdminEmail(user.email, deps.adminEmails),
    created_at: now.toISOString(),
  };
  const result: Registered = {
    id,
    nick: user.nick,
    email: user.email,
    phone: user.phone,
    user_option: user.user_option,
  };
  const profileItem = newProfileItem(
    {
      id,
      nick: user.nick,
      user_option: user.user_option,
      name: user.user_option === 'company' ? user.entity_name : user.name,
      surname: user.user_option === 'company' ? null : user.surname,
      entity_name: user.user_option === 'company' ? user.entity_name : null,
    },
    now,
  );

  const outcome = await deps.repo.createAccount({
    account,
    profileItem,
    ...(idempotencyKey === undefined
      ? {}
      : {
          idempotency: {
            key: idempotencyKey,
            fingerprint,
            result,
            ttl: Math.ceil((now.getTime() + IDEMPOTENCY_TTL_MS) / 1000),
          },
        }),
  });

  if (outcome.status === 'replay' && idempotencyKey !== undefined) {
    const stored = await deps.repo.getIdempotency(idempotencyKey);
    if (stored === undefined) {
      // Compensated meanwhile (the first call's Cognito step failed): ask the client to retry.
      throw new DomainError('unavailable', { message: 'The sign-up is being retried. Try again.' });
    }
    requireSameRequest(stored, fingerprint);
    await ensureIdentity(deps, stored.result, user.password);
    return { created: false, result: stored.result };
  }

  try {
    await ensureIdentity(deps, result, user.password);
  } catch (error) {
    logger.error('sign-up: identity step failed, removing the account', error as Error);
    await deps.repo.removeAccount(account, idempotencyKey);
    throw new DomainError('unavailable', {
      message: 'The account could not be created. Try again.',
      cause: error,
    });
  }
  return { created: true, result };
}

/** Availability checks (users/check-nickname|check-email|check-mobile): value already valid. */
export async function checkAvailability(
  deps: { repo: AccountsRepo },
  field: UniqueField,
  value: string,
): Promise<{ available: boolean }> {
  return { available: !(await deps.repo.isTaken(field, value)) };
}
