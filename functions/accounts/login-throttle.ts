/**
 * Login throttling (issue 8 §5): who may try a pin now, and how long the others wait. Pure: the
 * counters come in, the clock is an argument.
 *
 * Failed pin answers are counted three ways, each over a rolling hour (the current and the previous
 * clock-hour buckets are added, so a count never forgets early; it may remember up to 2 hours):
 * - per source (the caller's IP address, across all accounts),
 * - per account and source (the pair),
 * - per account (all sources together).
 * A source is *trusted* for an account when a login of that account completed from it within the
 * last 30 days.
 *
 * The rules, checked before a challenge is created and before an answer is checked:
 * 1. source limit: a source with 30 failures in the window is refused until the window drops below
 *    (one source sweeping many accounts, or hammering one);
 * 2. pair back-off: after 5 failures of a pair (one pin's tries) it waits 2 s after its latest
 *    failure, doubling with each further failure, at most 15 min (one source hammering one
 *    account: it slows down, nobody else does);
 * 3. account back-off, untrusted sources only: after 10 failures of the account it waits 1 s after
 *    the account's latest failure, doubling, at most 60 s (many sources hammering one account: the
 *    whole attack gets at most about one guess a minute);
 * 4. account ceiling, untrusted sources only: 100 failures of the account in the window refuse
 *    untrusted sources until the window drops below (bursts that race past rule 3).
 * The longest wait wins. A failure is only recorded after a check allowed the attempt, so a waiting
 * caller does not extend its own wait by asking.
 *
 * The owner during an attack (the bound, tested in login-throttle.test.ts and login.int.test.ts):
 * once the attack is the only thing failing (the owner's source has no failures of its own),
 * - from a trusted source the owner is never delayed by the attack (rules 3 and 4 do not apply;
 *   rules 1 and 2 count only the owner's own failures): 0 s;
 * - from any other source the owner waits at most 60 s after the attack's latest failure (rule 3's
 *   cap), unless a distributed attack put 100 failures on the account within the hour (rule 4),
 *   which refuses untrusted sources until the window drops below (at most 2 hours).
 * Brute force: a pin has 4 digits, 5 tries, 10 minutes, and a login needs the e-mail pin and then
 * the phone pin. One source gets at most 30 guesses an hour; untrusted sources together at most
 * about 60 an hour per account (rule 3) and never more than 100 (rule 4).
 *
 * Without a source (an event that carries none, see `sourceOf` in login.ts), rules 1 and 2 cannot
 * apply and the source is not trusted: rules 3 and 4 still hold for everyone.
 */

export const THROTTLE_RULES = {
  windowMs: 60 * 60_000,
  source: { limit: 30 },
  pair: { free: 5, baseMs: 2_000, capMs: 15 * 60_000 },
  account: { free: 10, baseMs: 1_000, capMs: 60_000, limit: 100 },
  trustMs: 30 * 24 * 60 * 60_000,
} as const;

/** Failures of one counter: the current and the previous clock-hour buckets, and the latest. */
export interface FailureCount {
  current: number;
  previous: number;
  /** ISO time of the latest failure in either bucket. */
  lastFailureAt?: string;
}

export const NO_FAILURES: FailureCount = { current: 0, previous: 0 };

export interface ThrottleState {
  account: FailureCount;
  /** undefined when the attempt has no source. */
  source?: FailureCount;
  pair?: FailureCount;
  /** A login of this account completed from this source within THROTTLE_RULES.trustMs. */
  trusted: boolean;
}

export type ThrottleRule = 'source' | 'pair' | 'account' | 'account-limit';

export type ThrottleDecision =
  | { kind: 'allow' }
  /** A back-off: try again in `seconds`. */
  | { kind: 'delay'; seconds: number; rule: ThrottleRule }
  /** A hard limit: the window must drop below it, in `seconds`. */
  | { kind: 'refuse'; seconds: number; rule: ThrottleRule };

/** The clock-hour bucket of a time ('2026-11-22T03'), and the previous one. */
export function failureBuckets(now: Date): { current: string; previous: string } {
  const hour = (at: Date) => at.toISOString().slice(0, 13);
  return { current: hour(now), previous: hour(new Date(now.getTime() - 3_600_000)) };
}

/** DynamoDB TTL (epoch seconds) of a failure counter bucket: it outlives its 2-hour use. */
export function failureTtl(now: Date): number {
  return Math.ceil((now.getTime() + 3 * 3_600_000) / 1000);
}

/** DynamoDB TTL of a trusted-source record written at `now`. */
export function trustTtl(now: Date): number {
  return Math.ceil((now.getTime() + THROTTLE_RULES.trustMs) / 1000);
}

export function total(count: FailureCount): number {
  return count.current + count.previous;
}

/** The back-off after `failures`: 0 while free, then base doubling per failure, capped. */
export function backoffMs(
  failures: number,
  rule: { free: number; baseMs: number; capMs: number },
): number {
  if (failures < rule.free) return 0;
  const exponent = Math.min(failures - rule.free, 30);
  return Math.min(rule.capMs, rule.baseMs * 2 ** exponent);
}

function startOfHour(now: Date): number {
  return Math.floor(now.getTime() / 3_600_000) * 3_600_000;
}

/** How long until a counter at or over `limit` drops below it (0 when it is below). */
function limitWaitMs(count: FailureCount, limit: number, now: Date): number {
  if (total(count) < limit) return 0;
  const hour = startOfHour(now);
  // The previous bucket leaves the window at the next hour; the current one an hour later.
  const until = count.current >= limit ? hour + 2 * 3_600_000 : hour + 3_600_000;
  return Math.max(0, until - now.getTime());
}

function backoffWaitMs(
  count: FailureCount,
  rule: { free: number; baseMs: number; capMs: number },
  now: Date,
): number {
  if (count.lastFailureAt === undefined) return 0;
  const delay = backoffMs(total(count), rule);
  return Math.max(0, Date.parse(count.lastFailureAt) + delay - now.getTime());
}

/** Allow, delay or refuse an attempt (a new challenge or an answer). */
export function decideAttempt(state: ThrottleState, now: Date): ThrottleDecision {
  const waits: { ms: number; rule: ThrottleRule; kind: 'delay' | 'refuse' }[] = [];
  if (state.source !== undefined) {
    waits.push({
      ms: limitWaitMs(state.source, THROTTLE_RULES.source.limit, now),
      rule: 'source',
      kind: 'refuse',
    });
  }
  if (state.pair !== undefined) {
    waits.push({
      ms: backoffWaitMs(state.pair, THROTTLE_RULES.pair, now),
      rule: 'pair',
      kind: 'delay',
    });
  }
  if (!state.trusted) {
    waits.push({
      ms: backoffWaitMs(state.account, THROTTLE_RULES.account, now),
      rule: 'account',
      kind: 'delay',
    });
    waits.push({
      ms: limitWaitMs(state.account, THROTTLE_RULES.account.limit, now),
      rule: 'account-limit',
      kind: 'refuse',
    });
  }
  const longest = waits.reduce<(typeof waits)[number] | undefined>(
    (best, wait) => (wait.ms > 0 && (best === undefined || wait.ms > best.ms) ? wait : best),
    undefined,
  );
  if (longest === undefined) return { kind: 'allow' };
  return { kind: longest.kind, seconds: Math.ceil(longest.ms / 1000), rule: longest.rule };
}

/**
 * The caller's source as the triggers receive it: an IP address (v4 or v6, at most 45 characters
 * of hex digits, dots and colons), lower-cased; anything else is no source.
 */
export function normaliseSource(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '' || trimmed.length > 45 || !/^[0-9a-f.:]+$/.test(trimmed)) return undefined;
  return trimmed;
}
