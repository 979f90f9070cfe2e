import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  decideAttempt,
  failureBuckets,
  normaliseSource,
  THROTTLE_RULES,
  type FailureCount,
  type ThrottleDecision,
} from './login-throttle';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-22T10:00:00.000Z');

/**
 * A model of the table: failures kept per clock-hour bucket exactly as the repo counts them, and
 * the trusted (account, source) pairs. Every attempt asks `decideAttempt`; an allowed one is a
 * wrong guess (an attacker) unless it is the owner's.
 */
class World {
  private readonly buckets = new Map<string, { count: number; last: number }>();
  private readonly trusted = new Set<string>();

  private bump(key: string, at: number) {
    const bucket = `${key}|${failureBuckets(new Date(at)).current}`;
    const entry = this.buckets.get(bucket) ?? { count: 0, last: 0 };
    this.buckets.set(bucket, { count: entry.count + 1, last: Math.max(entry.last, at) });
  }

  private count(key: string, now: number): FailureCount {
    const { current, previous } = failureBuckets(new Date(now));
    const a = this.buckets.get(`${key}|${current}`);
    const b = this.buckets.get(`${key}|${previous}`);
    const last = Math.max(a?.last ?? 0, b?.last ?? 0);
    return {
      current: a?.count ?? 0,
      previous: b?.count ?? 0,
      ...(last === 0 ? {} : { lastFailureAt: new Date(last).toISOString() }),
    };
  }

  trust(account: string, source: string) {
    this.trusted.add(`${account}|${source}`);
  }

  decide(account: string, source: string | undefined, now: number): ThrottleDecision {
    return decideAttempt(
      {
        account: this.count(`A#${account}`, now),
        ...(source === undefined
          ? {}
          : {
              source: this.count(`S#${source}`, now),
              pair: this.count(`P#${account}#${source}`, now),
            }),
        trusted: source !== undefined && this.trusted.has(`${account}|${source}`),
      },
      new Date(now),
    );
  }

  fail(account: string, source: string | undefined, at: number) {
    this.bump(`A#${account}`, at);
    if (source !== undefined) {
      this.bump(`S#${source}`, at);
      this.bump(`P#${account}#${source}`, at);
    }
  }
}

/** Wrong guesses admitted in each rolling hour window starting at every admitted guess. */
function maxPerRollingHour(times: number[]): number {
  let best = 0;
  let from = 0;
  for (let to = 0; to < times.length; to += 1) {
    while ((times[to] as number) - (times[from] as number) >= HOUR) from += 1;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

interface Attacker {
  /** The source of the attacker's n-th attempt. */
  source: (attempt: number) => string | undefined;
  /** The account of the n-th attempt. */
  account: (attempt: number) => string;
}

/**
 * A patient attacker: tries, and when told to wait, comes back exactly when told (or after
 * `retryMs` when it rotates to another source). Runs `durationMs`; returns the admitted guesses.
 */
function attack(
  world: World,
  attacker: Attacker,
  durationMs: number,
  options: { rotateOnWait?: boolean; retryMs?: number } = {},
): number[] {
  const admitted: number[] = [];
  let now = START;
  let attempt = 0;
  let sourceAttempt = 0;
  while (now < START + durationMs) {
    const account = attacker.account(attempt);
    const source = attacker.source(sourceAttempt);
    const decision = world.decide(account, source, now);
    if (decision.kind === 'allow') {
      world.fail(account, source, now);
      admitted.push(now);
      now += 1_000;
      attempt += 1;
    } else if (options.rotateOnWait === true) {
      // A distributed attacker moves to a fresh source instead of waiting.
      sourceAttempt += 1;
      now += options.retryMs ?? 1_000;
    } else {
      now += decision.seconds * 1_000;
    }
  }
  return admitted;
}

const OWNER = 'owner@example.com';
const OWNER_HOME = '203.0.113.7';
const OWNER_NEW = '198.51.100.99';

describe('backoffMs', () => {
  it.each([
    [0, 0],
    [4, 0],
    [5, 2_000],
    [6, 4_000],
    [10, 64_000],
    [13, 512_000],
    [14, 900_000],
    [1_000, 900_000],
  ])('a pair after %i failures waits %i ms', (failures, ms) => {
    expect(backoffMs(failures, THROTTLE_RULES.pair)).toBe(ms);
  });

  it.each([
    [9, 0],
    [10, 1_000],
    [15, 32_000],
    [16, 60_000],
    [500, 60_000],
  ])('an account after %i failures waits %i ms', (failures, ms) => {
    expect(backoffMs(failures, THROTTLE_RULES.account)).toBe(ms);
  });
});

describe('decideAttempt', () => {
  const now = new Date('2026-11-22T10:30:00.000Z');
  const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000).toISOString();
  const none: FailureCount = { current: 0, previous: 0 };

  it.each<[string, Parameters<typeof decideAttempt>[0], ThrottleDecision]>([
    [
      'a clean attempt',
      { account: none, source: none, pair: none, trusted: false },
      { kind: 'allow' },
    ],
    [
      'a pair within its free tries',
      {
        account: { current: 4, previous: 0, lastFailureAt: at(0) },
        source: { current: 4, previous: 0, lastFailureAt: at(0) },
        pair: { current: 4, previous: 0, lastFailureAt: at(0) },
        trusted: false,
      },
      { kind: 'allow' },
    ],
    [
      'a pair after 6 failures, 1 s after the latest',
      {
        account: { current: 6, previous: 0, lastFailureAt: at(1) },
        source: { current: 6, previous: 0, lastFailureAt: at(1) },
        pair: { current: 6, previous: 0, lastFailureAt: at(1) },
        trusted: false,
      },
      { kind: 'delay', seconds: 3, rule: 'pair' },
    ],
    [
      'a source over its hourly limit (previous bucket)',
      {
        account: none,
        source: { current: 10, previous: 20, lastFailureAt: at(5) },
        pair: none,
        trusted: false,
      },
      { kind: 'refuse', seconds: 30 * 60, rule: 'source' },
    ],
    [
      'a source over its hourly limit within this hour',
      {
        account: none,
        source: { current: 30, previous: 0, lastFailureAt: at(5) },
        pair: none,
        trusted: true,
      },
      { kind: 'refuse', seconds: 90 * 60, rule: 'source' },
    ],
    [
      'a fresh source on an account under attack',
      {
        account: { current: 40, previous: 0, lastFailureAt: at(20) },
        source: none,
        pair: none,
        trusted: false,
      },
      { kind: 'delay', seconds: 40, rule: 'account' },
    ],
    [
      'a trusted source on an account under attack',
      {
        account: { current: 40, previous: 60, lastFailureAt: at(0) },
        source: none,
        pair: none,
        trusted: true,
      },
      { kind: 'allow' },
    ],
    [
      'a fresh source on an account at its ceiling',
      {
        account: { current: 50, previous: 50, lastFailureAt: at(600) },
        source: none,
        pair: none,
        trusted: false,
      },
      { kind: 'refuse', seconds: 30 * 60, rule: 'account-limit' },
    ],
    [
      'no source: the account rules still apply',
      { account: { current: 12, previous: 0, lastFailureAt: at(1) }, trusted: false },
      { kind: 'delay', seconds: 3, rule: 'account' },
    ],
  ])('%s', (_name, state, decision) => {
    expect(decideAttempt(state, now)).toEqual(decision);
  });
});

describe('attack patterns (a model of the table, an injected clock)', () => {
  it('one source hammering one account: it slows down to the cap, the owner is not touched', () => {
    const world = new World();
    world.trust(OWNER, OWNER_HOME);
    const guesses = attack(world, { source: () => '192.0.2.1', account: () => OWNER }, 24 * HOUR);
    // The pair back-off: 5 free, then 2 s doubling to 15 min; as old failures leave the window the
    // pair drifts back down, so it sustains about 8 guesses an hour.
    expect(guesses.slice(0, 5).every((time) => time < START + 10_000)).toBe(true);
    expect(maxPerRollingHour(guesses)).toBeLessThanOrEqual(THROTTLE_RULES.source.limit);
    expect(guesses.length).toBeLessThanOrEqual(24 * 10);
    const end = START + 24 * HOUR;
    // The owner from home: at once. From a new source: at most the account cap.
    expect(world.decide(OWNER, OWNER_HOME, end)).toEqual({ kind: 'allow' });
    const fresh = world.decide(OWNER, OWNER_NEW, end);
    if (fresh.kind !== 'allow') {
      expect(fresh.kind).toBe('delay');
      expect(fresh.seconds).toBeLessThanOrEqual(THROTTLE_RULES.account.capMs / 1000);
    }
  });

  it('many sources hammering one account: at most ~one guess a minute, never 100 an hour', () => {
    const world = new World();
    world.trust(OWNER, OWNER_HOME);
    const guesses = attack(
      world,
      { source: (n) => `10.0.${Math.floor(n / 250)}.${n % 250}`, account: () => OWNER },
      24 * HOUR,
      { rotateOnWait: true, retryMs: 1_000 },
    );
    expect(maxPerRollingHour(guesses)).toBeLessThan(THROTTLE_RULES.account.limit);
    // Once at its cap, the account admits one guess per 60 s: about 60 an hour, 1,450 a day.
    expect(guesses.length).toBeLessThanOrEqual(24 * 62);
    // The owner from home gets in at once, whenever during the attack.
    for (let hour = 1; hour <= 24; hour += 1) {
      expect(world.decide(OWNER, OWNER_HOME, START + hour * HOUR - 1)).toEqual({
        kind: 'allow',
      });
    }
    // From a new source, the owner waits at most the account cap.
    const fresh = world.decide(OWNER, OWNER_NEW, START + 24 * HOUR);
    expect(fresh.kind === 'allow' || fresh.seconds <= 60).toBe(true);
  });

  it('a burst of many sources at once meets the account ceiling, not the trusted owner', () => {
    const world = new World();
    world.trust(OWNER, OWNER_HOME);
    // 150 sources race past the checks in the same second (the read-then-write gap).
    for (let n = 0; n < 150; n += 1) world.fail(OWNER, `10.1.0.${n}`, START);
    const fresh = world.decide(OWNER, OWNER_NEW, START + 120_000);
    expect(fresh).toMatchObject({ kind: 'refuse', rule: 'account-limit' });
    expect(fresh.kind !== 'allow' && fresh.seconds).toBeLessThanOrEqual(2 * 3600);
    expect(world.decide(OWNER, OWNER_HOME, START + 1)).toEqual({ kind: 'allow' });
  });

  it('one source sweeping many accounts: refused after 30 failures an hour', () => {
    const world = new World();
    const guesses = attack(
      world,
      { source: () => '192.0.2.50', account: (n) => `user${n}@example.com` },
      24 * HOUR,
    );
    expect(maxPerRollingHour(guesses)).toBeLessThanOrEqual(THROTTLE_RULES.source.limit);
    expect(guesses.length).toBeLessThanOrEqual(24 * THROTTLE_RULES.source.limit);
    // The swept accounts' owners are not delayed: each account saw one failure.
    expect(world.decide('user3@example.com', OWNER_NEW, START + HOUR)).toEqual({ kind: 'allow' });
  });

  it('the owner logging in from their own source during an attack gets in at once', () => {
    const world = new World();
    world.trust(OWNER, OWNER_HOME);
    let now = START;
    // A sustained attack from three sources, 10 minutes long, obeying the waits.
    const sources = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
    let turn = 0;
    while (now < START + 10 * 60_000) {
      const source = sources[turn % sources.length] as string;
      const decision = world.decide(OWNER, source, now);
      if (decision.kind === 'allow') world.fail(OWNER, source, now);
      turn += 1;
      now += 500;
    }
    // The attack is the only thing failing: the owner's own sources have no failures.
    expect(world.decide(OWNER, OWNER_HOME, now)).toEqual({ kind: 'allow' });
    const fresh = world.decide(OWNER, OWNER_NEW, now);
    expect(fresh.kind === 'allow' || (fresh.kind === 'delay' && fresh.seconds <= 60)).toBe(true);
    // The owner's own typos slow only the owner's pair, after the free tries.
    for (let typo = 0; typo < 5; typo += 1) {
      expect(world.decide(OWNER, OWNER_HOME, now)).toEqual({ kind: 'allow' });
      world.fail(OWNER, OWNER_HOME, now);
    }
    expect(world.decide(OWNER, OWNER_HOME, now)).toMatchObject({ kind: 'delay', rule: 'pair' });
    expect(world.decide(OWNER, OWNER_HOME, now + 2_000)).toEqual({ kind: 'allow' });
  });

  it('without sources (an event that carries none): the account rules alone still hold', () => {
    const world = new World();
    const guesses = attack(world, { source: () => undefined, account: () => OWNER }, 24 * HOUR);
    expect(maxPerRollingHour(guesses)).toBeLessThan(THROTTLE_RULES.account.limit);
  });
});

describe('failureBuckets', () => {
  it('counts failures in the current and the previous clock hour', () => {
    expect(failureBuckets(new Date('2026-11-22T00:30:00Z'))).toEqual({
      current: '2026-11-22T00',
      previous: '2026-11-21T23',
    });
  });
});

describe('normaliseSource', () => {
  it.each<[unknown, string | undefined]>([
    ['203.0.113.7', '203.0.113.7'],
    [' 2001:DB8::1 ', '2001:db8::1'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1'],
    ['', undefined],
    ['evil#key', undefined],
    ['1'.repeat(46), undefined],
    [42, undefined],
    [undefined, undefined],
  ])('%j → %j', (value, source) => {
    expect(normaliseSource(value)).toBe(source);
  });
});
