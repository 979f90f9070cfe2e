import { idempotencyRecordKey } from '../core/idempotency';
/**
 * Accounts: key builders. Access patterns:
 *
 * | pattern                                        | key condition                                  | index |
 * |------------------------------------------------|------------------------------------------------|-------|
 * | account (private identity record) by user id   | pk = USER#<id>, sk = ACCOUNT                   | table |
 * | nick taken? / owner of a nick                  | pk = NICK#<nick>, sk = GUARD                   | table |
 * | e-mail taken? / owner of an e-mail             | pk = EMAIL#<email>, sk = GUARD                 | table |
 * | phone taken? / owner of a phone                | pk = PHONE#<e164>, sk = GUARD                  | table |
 * | sign-up replay by Idempotency-Key              | pk = IDEMPOTENCY#register#<key>, sk = RESULT   | table |
 * | login pin by challenge id                      | pk = PIN#<challengeId>, sk = PIN               | table |
 * | failed pin answers of a login name, by hour    | pk = LOGINFAIL#<userName>, sk BETWEEN h-1 and h | table |
 * | … of a login name from one source, by hour     | pk = LOGINFAIL#<userName>,                      | table |
 * |                                                |   sk BETWEEN SRC#<ip>#h-1 and SRC#<ip>#h        |       |
 * | is a source trusted for a login name?          | pk = LOGINFAIL#<userName>, sk = TRUST#<ip>      | table |
 * | failed pin answers from one source, by hour    | pk = LOGINFAILSRC#<ip>, sk BETWEEN h-1 and h    | table |
 * | password-reset token by its SHA-256            | pk = PWRESET#<sha256 hex>, sk = TOKEN          | table |
 * | password-reset requests of an e-mail, by hour  | pk = PWRESETREQ#<email>, sk = <hour bucket>    | table |
 *
 * Guard items make nick, e-mail and phone unique: sign-up writes the three guards, the account and
 * the profile in one TransactWriteItems, each guard with attribute_not_exists(pk). Values are
 * normalised before they become keys (nick and e-mail lower-cased, phone E.164).
 * Pins, failure counters, trusted sources, idempotency records, reset tokens and reset counters
 * carry `ttl`. Hour buckets are ISO prefixes ('2026-11-22T10'), so the account's own buckets sort
 * apart from its SRC# and TRUST# items (login-throttle.ts says how they are used).
 * A reset token item holds only the token's SHA-256 (in its key), the user id and its expiry.
 */
import type { UniqueField } from '../../shared/schemas/accounts';

export const ACCOUNT_TYPE = 'account';
export const GUARD_TYPE = 'guard';
export const PIN_TYPE = 'pin';
export const LOGIN_FAILURES_TYPE = 'login_failures';
export const LOGIN_TRUSTED_SOURCE_TYPE = 'login_trusted_source';
export const PASSWORD_RESET_TYPE = 'password_reset';
export const PASSWORD_RESET_REQUESTS_TYPE = 'password_reset_requests';

export interface Key {
  pk: string;
  sk: string;
}

export function accountKey(userId: string): Key {
  return { pk: `USER#${userId}`, sk: 'ACCOUNT' };
}

const GUARD_PREFIX: Record<UniqueField, string> = { nick: 'NICK', email: 'EMAIL', phone: 'PHONE' };

/** `value` must already be normalised (the zod schemas do it). */
export function guardKey(field: UniqueField, value: string): Key {
  return { pk: `${GUARD_PREFIX[field]}#${value}`, sk: 'GUARD' };
}

/** The scope of sign-up replay records (core/idempotency.ts owns their keys). */
export const REGISTER_IDEMPOTENCY_SCOPE = 'register';

export function registerIdempotencyKey(idempotencyKey: string): Key {
  return idempotencyRecordKey(REGISTER_IDEMPOTENCY_SCOPE, idempotencyKey);
}

export function pinKey(challengeId: string): Key {
  return { pk: `PIN#${challengeId}`, sk: 'PIN' };
}

export function loginFailuresPartition(userName: string): string {
  return `LOGINFAIL#${userName.toLowerCase()}`;
}

export function loginFailuresKey(userName: string, hourBucket: string): Key {
  return { pk: loginFailuresPartition(userName), sk: hourBucket };
}

/** `source`: a normalised IP address (login-throttle.ts `normaliseSource`). */
export function loginPairFailuresSortKey(source: string, hourBucket: string): string {
  return `SRC#${source}#${hourBucket}`;
}

export function loginPairFailuresKey(userName: string, source: string, hourBucket: string): Key {
  return { pk: loginFailuresPartition(userName), sk: loginPairFailuresSortKey(source, hourBucket) };
}

export function loginTrustedSourceKey(userName: string, source: string): Key {
  return { pk: loginFailuresPartition(userName), sk: `TRUST#${source}` };
}

export function sourceFailuresPartition(source: string): string {
  return `LOGINFAILSRC#${source}`;
}

export function sourceFailuresKey(source: string, hourBucket: string): Key {
  return { pk: sourceFailuresPartition(source), sk: hourBucket };
}

/** `tokenHash`: the lower-case hex SHA-256 of the token (the token itself is never stored). */
export function passwordResetKey(tokenHash: string): Key {
  return { pk: `PWRESET#${tokenHash}`, sk: 'TOKEN' };
}

/** `email` normalised (lower-cased); `hourBucket` e.g. 2026-11-22T10. */
export function passwordResetRequestsKey(email: string, hourBucket: string): Key {
  return { pk: `PWRESETREQ#${email.toLowerCase()}`, sk: hourBucket };
}
