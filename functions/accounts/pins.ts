import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { PROFILE_LIMITS, PIN_LIMITS } from '../../shared/constants/limits';

/**
 * Login pins (spec 001 §4, §5, §9: 4-digit codes; issue 3): pure rules, no I/O.
 *
 * - A pin is 4 digits from the CSPRNG (`crypto.randomInt`).
 * - Only an HMAC-SHA256 of it is stored, keyed by a random per-pin salt; the clear pin exists only
 *   in the message sent to the user.
 * - A pin is bound to one login attempt: its challenge id (random, 128 bits) travels in the
 *   Cognito session's privateChallengeParameters and keys the stored record; the record also names
 *   the user and the step, and verification checks all three.
 * - Valid 10 minutes from creation, single-use, at most 5 tries.
 * - Resend: the challenge answer `RESEND` asks for a new pin. Accepted once the cooldown (60 s
 *   from the pin's creation) passed: the pin is retired and the next challenge carries a new pin
 *   under a new challenge id. Before the cooldown, `RESEND` counts as a wrong try.
 * - Failed answers are counted per source, per login name and per pair, and the next attempts
 *   wait accordingly (login-throttle.ts); a waiting caller is told for how long.
 * - Comparison is constant-time over the HMAC digests, and an unknown e-mail gets a decoy record
 *   that goes through the same computation and never matches.
 */
export const PIN_RULES = {
  digits: PROFILE_LIMITS.pinLength,
  validityMs: PIN_LIMITS.validityMs,
  maxTries: PIN_LIMITS.maxTries,
  resendCooldownMs: PIN_LIMITS.resendCooldownMs,
  /** How long records outlive their validity before DynamoDB's TTL removes them. */
  retentionMs: 60 * 60_000,
} as const;

export const RESEND_ANSWER = 'RESEND';

export type PinStep = 'email' | 'phone';

export interface PinRecord {
  challengeId: string;
  /** The Cognito userName the attempt is for (our user id, or the typed login for a decoy). */
  userName: string;
  step: PinStep;
  salt: string;
  hash: string;
  createdAt: string;
  expiresAt: string;
  tries: number;
  used: boolean;
  /** Set when a RESEND was accepted: the pin is retired and a new one is issued. */
  retired: boolean;
  /** A decoy (unknown user): nothing was sent and no answer ever matches. */
  decoy: boolean;
}

export type RandomInt = (min: number, max: number) => number;

export function generatePin(random: RandomInt = randomInt): string {
  return String(random(0, 10 ** PIN_RULES.digits)).padStart(PIN_RULES.digits, '0');
}

export function newChallengeId(): string {
  return randomBytes(16).toString('hex');
}

export function hashPin(pin: string, salt: string): string {
  return createHmac('sha256', Buffer.from(salt, 'hex')).update(pin, 'utf8').digest('hex');
}

export function newPinRecord(
  input: { challengeId: string; userName: string; step: PinStep; decoy: boolean },
  now: Date,
  random: RandomInt = randomInt,
): { record: PinRecord; pin: string } {
  const pin = generatePin(random);
  const salt = randomBytes(16).toString('hex');
  // A decoy stores the hash of a value that is not 4 digits, so no answer can ever match.
  const hash = hashPin(input.decoy ? `decoy:${randomBytes(8).toString('hex')}` : pin, salt);
  return {
    pin,
    record: {
      ...input,
      salt,
      hash,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PIN_RULES.validityMs).toISOString(),
      tries: 0,
      used: false,
      retired: false,
    },
  };
}

export type PinCheck =
  | { outcome: 'correct' }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'resend' }
  | { outcome: 'expired' | 'used' | 'exhausted' | 'mismatch' | 'missing' };

const DUMMY_SALT = '00000000000000000000000000000000';
const DUMMY_HASH = hashPin('dummy', DUMMY_SALT);

/** Constant-time equality of two hex digests of equal length. */
function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/**
 * Checks an answer against a record. The HMAC and the comparison run on every path (a missing
 * record uses a dummy), so the time taken does not tell a known user from an unknown one.
 * `expected` is what the login attempt says the pin is for.
 */
export function checkPin(
  record: PinRecord | undefined,
  expected: { challengeId: string; userName: string; step: PinStep },
  answer: string,
  now: Date,
): PinCheck {
  const normalised = answer.trim().toUpperCase();
  const salt = record?.salt ?? DUMMY_SALT;
  const matches = sameDigest(hashPin(normalised, salt), record?.hash ?? DUMMY_HASH);
  if (record === undefined) return { outcome: 'missing' };
  if (
    record.challengeId !== expected.challengeId ||
    record.userName !== expected.userName ||
    record.step !== expected.step
  ) {
    return { outcome: 'mismatch' };
  }
  if (record.used || record.retired) return { outcome: 'used' };
  if (record.tries >= PIN_RULES.maxTries) return { outcome: 'exhausted' };
  if (now.getTime() >= Date.parse(record.expiresAt)) return { outcome: 'expired' };
  if (normalised === RESEND_ANSWER && canResend(record, now)) return { outcome: 'resend' };
  const wellFormed = new RegExp(`^\\d{${PIN_RULES.digits}}$`).test(normalised);
  if (matches && wellFormed && !record.decoy) return { outcome: 'correct' };
  return { outcome: 'wrong', triesLeft: Math.max(0, PIN_RULES.maxTries - record.tries - 1) };
}

export function canResend(record: PinRecord, now: Date): boolean {
  return now.getTime() - Date.parse(record.createdAt) >= PIN_RULES.resendCooldownMs;
}

/** Whether the record can still be answered (the next challenge reuses it instead of a new pin). */
export function isLive(record: PinRecord, now: Date): boolean {
  return (
    !record.used &&
    !record.retired &&
    record.tries < PIN_RULES.maxTries &&
    now.getTime() < Date.parse(record.expiresAt)
  );
}

/** DynamoDB TTL (epoch seconds) of a pin record. */
export function pinTtl(record: PinRecord): number {
  return Math.ceil((Date.parse(record.expiresAt) + PIN_RULES.retentionMs) / 1000);
}

/** Masks a destination for the challenge screen: m•••@e•••.com, +34•••••6789. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}•••@${host.slice(0, 1)}•••${tld}`;
}

export function maskPhone(phone: string): string {
  if (phone.length <= 7) return '•'.repeat(phone.length);
  return `${phone.slice(0, 3)}${'•'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}
