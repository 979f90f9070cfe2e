import { describe, expect, it } from 'vitest';
import { DomainError } from './errors';
import {
  answerOnce,
  requestFingerprint,
  type AnswerClaim,
  type AnswerStore,
  type KeptAnswer,
} from './answers';

/** The table's semantics in memory: a conditional claim, a kept answer, a released claim. */
function memoryStore(): AnswerStore & { rows: Map<string, Record<string, unknown>> } {
  const rows = new Map<string, Record<string, unknown>>();
  return {
    rows,
    async claim({ scope, key, fingerprint, leaseUntil, now }): Promise<AnswerClaim> {
      const id = `${scope}|${key}`;
      const row = rows.get(id);
      if (
        row === undefined ||
        (row.state === 'running' &&
          (row.lease_until as number) < now &&
          row.fingerprint === fingerprint)
      ) {
        rows.set(id, { fingerprint, state: 'running', lease_until: leaseUntil });
        return { state: 'claimed' };
      }
      if (row.fingerprint !== fingerprint) {
        throw new DomainError('idempotency.key_reused');
      }
      if (row.state === 'answered') return { state: 'answered', answer: row.answer as KeptAnswer };
      return { state: 'running', until: row.lease_until as number };
    },
    async keep({ scope, key, fingerprint }, answer) {
      rows.set(`${scope}|${key}`, { fingerprint, state: 'answered', answer });
    },
    async release(scope, key) {
      if (rows.get(`${scope}|${key}`)?.state === 'running') rows.delete(`${scope}|${key}`);
    },
  };
}

const OK: KeptAnswer = { status: 200, headers: { 'content-type': 'application/json' }, body: '1' };

function request(store: AnswerStore, clock: { now: number }, fingerprint = 'f1') {
  return {
    scope: 'answer#u1#POST /api/pay',
    key: 'key-0001',
    fingerprint,
    deadline: clock.now + 10_000,
    now: () => clock.now,
    // Each look is a real (short) wait, the clock moving by the poll interval.
    sleep: async (ms: number) => {
      clock.now += ms;
      await new Promise((resolve) => setTimeout(resolve, 1));
    },
  };
}

describe('answerOnce (replayed answers of an Idempotency-Key)', () => {
  it('runs the first request and answers a retry with the kept answer, without running it', async () => {
    const store = memoryStore();
    const clock = { now: 1_000 };
    let runs = 0;
    const run = async () => {
      runs += 1;
      return { ...OK, body: `answer ${runs}` };
    };
    expect(await answerOnce(store, request(store, clock), run)).toEqual({
      ...OK,
      body: 'answer 1',
      replayed: false,
    });
    expect(await answerOnce(store, request(store, clock), run)).toEqual({
      ...OK,
      body: 'answer 1',
      replayed: true,
    });
    expect(runs).toBe(1);
  });

  it('makes a retry that comes while the first runs wait for the first answer', async () => {
    const store = memoryStore();
    const clock = { now: 1_000 };
    let finish: (answer: KeptAnswer) => void = () => undefined;
    const first = answerOnce(
      store,
      request(store, clock),
      () => new Promise<KeptAnswer>((resolve) => (finish = resolve)),
    );
    await Promise.resolve();
    let secondRan = false;
    const second = answerOnce(store, request(store, clock), async () => {
      secondRan = true;
      return OK;
    });
    // The second looks again while the first still runs (a few polls); then the first answers.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(clock.now).toBeLessThan(1_000 + 9_000);
    finish({ ...OK, body: 'first' });
    expect(await first).toMatchObject({ body: 'first', replayed: false });
    expect(await second).toMatchObject({ body: 'first', replayed: true });
    expect(secondRan).toBe(false);
  });

  it('answers 409 idempotency.in_progress when the first outlasts the retry budget', async () => {
    const store = memoryStore();
    const clock = { now: 1_000 };
    void answerOnce(store, request(store, clock), () => new Promise<KeptAnswer>(() => undefined));
    await Promise.resolve();
    await expect(answerOnce(store, request(store, clock), async () => OK)).rejects.toMatchObject({
      code: 'idempotency.in_progress',
      status: 409,
    });
  });

  it('refuses the same key with another request (409 idempotency.key_reused)', async () => {
    const store = memoryStore();
    const clock = { now: 1_000 };
    await answerOnce(store, request(store, clock, 'f1'), async () => OK);
    await expect(
      answerOnce(store, request(store, clock, 'f2'), async () => OK),
    ).rejects.toMatchObject({ code: 'idempotency.key_reused' });
  });

  it('keeps a refusal (4xx) but lets a retry run again after a 5xx or a crash', async () => {
    const store = memoryStore();
    const clock = { now: 1_000 };
    const refused = { status: 409, headers: {}, body: 'beaten' };
    await answerOnce(store, { ...request(store, clock), key: 'key-4xx' }, async () => refused);
    expect(
      await answerOnce(store, { ...request(store, clock), key: 'key-4xx' }, async () => OK),
    ).toMatchObject({ status: 409, body: 'beaten', replayed: true });

    let runs = 0;
    const flaky = async () => {
      runs += 1;
      if (runs === 1) return { status: 503, headers: {}, body: 'down' };
      if (runs === 2) throw new Error('crash');
      return OK;
    };
    expect(await answerOnce(store, request(store, clock), flaky)).toMatchObject({ status: 503 });
    await expect(answerOnce(store, request(store, clock), flaky)).rejects.toThrow('crash');
    expect(await answerOnce(store, request(store, clock), flaky)).toMatchObject({
      status: 200,
      replayed: false,
    });
    expect(runs).toBe(3);
  });

  it('takes over a claim whose function was stopped (its lease is over)', async () => {
    const store = memoryStore();
    const clock = { now: 1_000 };
    // A first request claimed the key and its Lambda was stopped before it answered.
    await store.claim({
      scope: 'answer#u1#POST /api/pay',
      key: 'key-0001',
      fingerprint: 'f1',
      leaseUntil: 5_000,
      now: 1_000,
    });
    clock.now = 6_000;
    expect(await answerOnce(store, request(store, clock), async () => OK)).toMatchObject({
      replayed: false,
    });
  });

  it('fingerprints the path and the body as sent', () => {
    expect(requestFingerprint('/api/a', '{"x":1}')).toBe(requestFingerprint('/api/a', '{"x":1}'));
    expect(requestFingerprint('/api/a', '{"x":1}')).not.toBe(
      requestFingerprint('/api/b', '{"x":1}'),
    );
    expect(requestFingerprint('/api/a', '{"x":1}')).not.toBe(
      requestFingerprint('/api/a', '{"x":2}'),
    );
  });
});
