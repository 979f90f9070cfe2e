import { describe, expect, it } from 'vitest';
import type { WorkflowStarter } from '../core/workflows';
import {
  FAN_OUT_CONCURRENCY,
  FanOutInputError,
  FanOutPageError,
  fanOutExecutionName,
  notifyFollowersPage,
  startFollowerFanOut,
  type FanOutDeps,
  type FanOutInput,
  type FanOutState,
} from './fan-out';
import type { NotifyInput } from './notify';

const NOW = new Date('2026-03-01T12:00:00Z');
const INPUT: FanOutInput = {
  sellerId: 'seller',
  offeringId: 'oF01JNEWOFFERING0000000000',
  publishedAt: '2026-03-01T11:59:59.000Z',
  payload: {
    itemName: 'Blue Lagoon print',
    itemmarket: 'oF01JNEWOFFERING0000000000',
    offeringId: 'oF01JNEWOFFERING0000000000',
    tokenImage: 'https://example.com/media/a.webp',
    sourcenick: 'lagoon',
    sourcename: 'Lagoon Studio',
  },
};

/** Followers f00000…, paged by id like the repo (the cursor is the last id answered). */
function fakeWorld(count: number, options: { includeSeller?: boolean } = {}) {
  const followers = Array.from(
    { length: count },
    (_, index) => `f${String(index).padStart(5, '0')}`,
  );
  if (options.includeSeller === true) followers.push('seller');
  followers.sort();
  const notifications = new Map<string, NotifyInput[]>();
  const guards = new Set<string>();
  const starts: Parameters<WorkflowStarter>[0][] = [];
  const failOnce = new Set<string>();
  let inFlight = 0;
  let maxInFlight = 0;
  const deps: FanOutDeps = {
    async followers(_sellerId, { cursor, limit }) {
      const from = cursor === undefined ? 0 : followers.indexOf(cursor) + 1;
      const ids = followers.slice(from, from + limit);
      return { ids, nextCursor: from + limit < followers.length ? (ids.at(-1) ?? null) : null };
    },
    async notify(input) {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 0));
      inFlight -= 1;
      if (failOnce.delete(input.to)) throw new Error(`throttled ${input.to}`);
      const guard = `${input.to}|${input.eventKey}`;
      if (guards.has(guard)) return { id: guard, created: false };
      guards.add(guard);
      notifications.set(input.to, [...(notifications.get(input.to) ?? []), input]);
      return { id: guard, created: true };
    },
    async startWorkflow(start) {
      starts.push(start);
      return {
        executionArn: `arn:aws:states:us-east-1:0:execution:${start.workflow}:${start.name}`,
        started: true,
      };
    },
  };
  return {
    followers,
    notifications,
    starts,
    failOnce,
    deps,
    maxInFlight: () => maxInFlight,
  };
}

/** Runs the workflow's loop as Step Functions would (the task until cursor is null). */
async function runLoop(deps: FanOutDeps, input: unknown): Promise<FanOutState> {
  let state = await notifyFollowersPage(deps, input, NOW);
  while (state.cursor !== null) state = await notifyFollowersPage(deps, state, NOW);
  return state;
}

describe('startFollowerFanOut', () => {
  it('starts one execution named after the offering (its only dependency: no follower read)', async () => {
    const world = fakeWorld(5000);
    const result = await startFollowerFanOut(INPUT, {
      startWorkflow: async (start) => {
        world.starts.push(start);
        return { executionArn: 'arn', started: true };
      },
    });
    expect(result).toEqual({ executionArn: 'arn', started: true });
    expect(world.starts).toEqual([
      { workflow: 'follower-fanout', name: `newoffering-${INPUT.offeringId}`, input: INPUT },
    ]);
  });

  it('refuses an input that is not a fan-out', async () => {
    const startWorkflow: WorkflowStarter = async () => ({ executionArn: 'arn', started: true });
    await expect(
      startFollowerFanOut({ ...INPUT, publishedAt: 'yesterday' }, { startWorkflow }),
    ).rejects.toThrow();
  });

  it('names continuations apart and hashes ids that cannot be execution names', () => {
    expect(fanOutExecutionName('oF1')).toBe('newoffering-oF1');
    expect(fanOutExecutionName('oF1', 2)).toBe('newoffering-oF1-c2');
    const odd = fanOutExecutionName('an id with spaces/and:colons');
    expect(odd).toMatch(/^newoffering-[0-9a-f]{40}$/);
    expect(fanOutExecutionName('x'.repeat(90))).toMatch(/^newoffering-[0-9a-f]{40}$/);
  });
});

describe('notifyFollowersPage (the workflow task)', () => {
  it('notifies every follower once, a page at a time, with bounded concurrency', async () => {
    const world = fakeWorld(2500);
    const first = await notifyFollowersPage(world.deps, INPUT, NOW);
    expect(first).toMatchObject({ notified: 1000, created: 1000, pages: 1, segment: 0 });
    expect(typeof first.cursor).toBe('string');
    const done = await runLoop(world.deps, first);
    expect(done).toMatchObject({ ...INPUT, cursor: null, notified: 2500, created: 2500, pages: 3 });
    expect(world.notifications.size).toBe(2500);
    for (const sent of world.notifications.values()) {
      expect(sent).toEqual([
        {
          to: sent[0]?.to,
          activity: 'market_newoffering',
          eventKey: `newoffering:${INPUT.offeringId}`,
          sourceid: 'seller',
          payload: INPUT.payload,
        },
      ]);
    }
    expect(world.maxInFlight()).toBe(FAN_OUT_CONCURRENCY);
    expect(world.starts).toEqual([]);
  });

  it('running again for the same offering creates nothing', async () => {
    const world = fakeWorld(1200);
    await runLoop(world.deps, INPUT);
    const again = await runLoop(world.deps, INPUT);
    expect(again).toMatchObject({ notified: 1200, created: 0 });
    expect([...world.notifications.values()].every((sent) => sent.length === 1)).toBe(true);
  });

  it('does not notify the seller', async () => {
    const world = fakeWorld(10, { includeSeller: true });
    const done = await runLoop(world.deps, INPUT);
    expect(done).toMatchObject({ notified: 10, created: 10 });
    expect(world.notifications.has('seller')).toBe(false);
  });

  it('fails a page with a failed notification after trying the rest; the retry completes it', async () => {
    const world = fakeWorld(300);
    world.failOnce.add('f00007');
    world.failOnce.add('f00200');
    const error = await notifyFollowersPage(world.deps, INPUT, NOW).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FanOutPageError);
    expect((error as Error).name).toBe('FanOut.PageIncomplete');
    expect((error as Error).message).toMatch(
      /^2 of 300 notifications failed; first: Error: throttled/,
    );
    expect(world.notifications.size).toBe(298);
    // Step Functions retries the task with the same input.
    const retried = await notifyFollowersPage(world.deps, INPUT, NOW);
    expect(retried).toMatchObject({ cursor: null, notified: 300, created: 2 });
    expect(world.notifications.size).toBe(300);
  });

  it('hands the rest to a continuation execution after pagesPerExecution pages', async () => {
    const world = fakeWorld(45);
    const input = { ...INPUT, pageSize: 10, pagesPerExecution: 2 };
    const first = await runLoop(world.deps, input);
    expect(first).toMatchObject({ cursor: null, notified: 20, pages: 2, segment: 0 });
    expect(first.continuedAs).toMatch(/:execution:follower-fanout:newoffering-.*-c1$/);
    expect(world.starts).toHaveLength(1);
    const start = world.starts[0] as Parameters<WorkflowStarter>[0];
    expect(start.workflow).toBe('follower-fanout');
    expect(start.name).toBe(`newoffering-${INPUT.offeringId}-c1`);
    expect(start.input).toMatchObject({
      ...input,
      cursor: 'f00019',
      notified: 20,
      created: 20,
      pages: 0,
      segment: 1,
    });
    expect(start.input).not.toHaveProperty('continuedAs');
    // The continuations run as their own executions, from the cursor on.
    const second = await runLoop(world.deps, start.input);
    expect(second).toMatchObject({ notified: 40, segment: 1, pages: 2 });
    const third = await runLoop(world.deps, world.starts[1]?.input);
    expect(third).toMatchObject({ cursor: null, notified: 45, created: 45, segment: 2, pages: 1 });
    expect(third.continuedAs).toBeUndefined();
    expect(world.starts.map((s) => s.name)).toEqual([
      `newoffering-${INPUT.offeringId}-c1`,
      `newoffering-${INPUT.offeringId}-c2`,
    ]);
    expect(world.notifications.size).toBe(45);
  });

  it('refuses a state that is not a fan-out (not retried by the workflow)', async () => {
    const world = fakeWorld(1);
    for (const bad of [{}, { ...INPUT, extra: 1 }, { ...INPUT, pageSize: 5000 }]) {
      const error = await notifyFollowersPage(world.deps, bad, NOW).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FanOutInputError);
      expect((error as Error).name).toBe('FanOut.InvalidInput');
    }
  });
});
