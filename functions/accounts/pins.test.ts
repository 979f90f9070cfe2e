import { describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock';
import {
  canResend,
  checkPin,
  generatePin,
  hashPin,
  isLive,
  maskEmail,
  maskPhone,
  newPinRecord,
  PIN_RULES,
  pinTtl,
  type PinRecord,
} from './pins';

const T0 = '2026-11-22T10:00:00.000Z';
const EXPECTED = { challengeId: 'c1', userName: 'u1', step: 'email' as const };

function make(over: Partial<PinRecord> = {}, pinValue = 1234): { record: PinRecord; pin: string } {
  const made = newPinRecord(
    { challengeId: 'c1', userName: 'u1', step: 'email', decoy: false },
    new Date(T0),
    () => pinValue,
  );
  return { record: { ...made.record, ...over }, pin: made.pin };
}

describe('pins', () => {
  it.each([
    [0, '0000'],
    [7, '0007'],
    [1234, '1234'],
    [9999, '9999'],
  ])('formats %i as %s', (value, pin) => {
    expect(generatePin(() => value)).toBe(pin);
  });

  it('draws 4 digits from the CSPRNG by default', () => {
    for (let index = 0; index < 50; index += 1) expect(generatePin()).toMatch(/^\d{4}$/);
  });

  it('stores only a salted HMAC: the same pin hashes differently under two salts', () => {
    const a = make();
    const b = make();
    expect(a.record.salt).not.toBe(b.record.salt);
    expect(a.record.hash).not.toBe(b.record.hash);
    // No field holds the pin (compared whole: a random hex hash or salt may contain 1234).
    expect(Object.values(a.record)).not.toContain('1234');
    expect(a.record.hash).toBe(hashPin('1234', a.record.salt));
    expect(a.record.expiresAt).toBe('2026-11-22T10:10:00.000Z');
  });

  const clock = fixedClock(T0);
  const at = (ms: number) => new Date(Date.parse(T0) + ms);

  it.each<[string, Partial<PinRecord>, string, number, string]>([
    ['the right pin', {}, '1234', 1_000, 'correct'],
    ['the right pin with spaces', {}, ' 1234 ', 1_000, 'correct'],
    ['a wrong pin', {}, '4321', 1_000, 'wrong'],
    ['a malformed answer', {}, '12a4', 1_000, 'wrong'],
    ['the right pin at 9:59', {}, '1234', PIN_RULES.validityMs - 1, 'correct'],
    ['the right pin at 10:00', {}, '1234', PIN_RULES.validityMs, 'expired'],
    ['the right pin once used', { used: true }, '1234', 1_000, 'used'],
    ['the right pin once retired by a resend', { retired: true }, '1234', 1_000, 'used'],
    ['the right pin after 5 tries', { tries: 5 }, '1234', 1_000, 'exhausted'],
    ['the right pin on the 5th try', { tries: 4 }, '1234', 1_000, 'correct'],
    ['a pin of another attempt', { challengeId: 'c2' }, '1234', 1_000, 'mismatch'],
    ['a pin of another user', { userName: 'u2' }, '1234', 1_000, 'mismatch'],
    ['an e-mail pin at the phone step', { step: 'phone' }, '1234', 1_000, 'mismatch'],
    ['RESEND before the cooldown', {}, 'RESEND', PIN_RULES.resendCooldownMs - 1, 'wrong'],
    ['RESEND after the cooldown', {}, 'resend', PIN_RULES.resendCooldownMs, 'resend'],
    ['anything against a decoy', { decoy: true }, '1234', 1_000, 'wrong'],
  ])('%s → %s', (_name, over, answer, after, outcome) => {
    const { record } = make(over);
    clock.set(at(after));
    expect(checkPin(record, EXPECTED, answer, clock.now()).outcome).toBe(outcome);
  });

  it('reports the tries left after a wrong answer', () => {
    const { record } = make({ tries: 3 });
    expect(checkPin(record, EXPECTED, '0000', at(1))).toEqual({ outcome: 'wrong', triesLeft: 1 });
  });

  it('a decoy never matches, whatever its stored hash was made from', () => {
    const decoy = newPinRecord(
      { challengeId: 'c1', userName: 'u1', step: 'email', decoy: true },
      new Date(T0),
      () => 1234,
    ).record;
    for (const answer of ['1234', '0000', '9999', 'decoy']) {
      expect(checkPin(decoy, EXPECTED, answer, at(1)).outcome).toBe('wrong');
    }
  });

  it('answers missing without a record, after the same hashing work', () => {
    expect(checkPin(undefined, EXPECTED, '1234', at(1))).toEqual({ outcome: 'missing' });
  });

  it.each<[Partial<PinRecord>, number, boolean]>([
    [{}, 0, true],
    [{}, PIN_RULES.validityMs, false],
    [{ used: true }, 0, false],
    [{ retired: true }, 0, false],
    [{ tries: 5 }, 0, false],
  ])('liveness of %j after %i ms is %s', (over, after, live) => {
    expect(isLive(make(over).record, at(after))).toBe(live);
  });

  it('resend waits for the cooldown', () => {
    const { record } = make();
    expect(canResend(record, at(59_999))).toBe(false);
    expect(canResend(record, at(60_000))).toBe(true);
  });

  it('keeps records an hour beyond their validity', () => {
    expect(pinTtl(make().record)).toBe(Date.parse('2026-11-22T11:10:00.000Z') / 1000);
  });

  it.each([
    ['marta@example.com', 'm•••@e•••.com'],
    ['a@b', 'a•••@b•••'],
  ])('masks %s as %s', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it('masks phones keeping the prefix and the last 4 digits', () => {
    expect(maskPhone('+34600123456')).toBe('+34•••••3456');
  });
});
