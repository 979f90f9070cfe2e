import {
  DescribeExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayFetch, twin, useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId, newOfferingId } from '../core/ids';
import { call, hasCognito, newUser } from '../accounts/testing/session';
import { putFollowEdges } from '../follows/testing/followers';
import type { UnreadCounters } from '../../shared/schemas/notifications';
import {
  FOLLOWER_FANOUT_WORKFLOW,
  startFollowerFanOut,
  type FanOutInput,
  type FanOutState,
} from './fan-out';
import { NOTIFICATION_PREFIX, notificationsPartition, stateKey } from './notifications.keys';

/**
 * The fan-out of a new offering on the twin: startFollowerFanOut → the workflow runner runs
 * infra/workflows/follower-fanout.asl.json, whose task notifies each page of followers with the
 * real notify() (DynamoDB Local, the live channel, the outbox). Followers are follow edges written
 * directly (they need no account: notify() reads no e-mail address unless the follower turned
 * the `followed` e-mails on).
 */
const FOLLOWERS = 10_000;
let sfn: SFNClient;

beforeAll(() => {
  const context = useTwinEnv();
  sfn = new SFNClient({
    region: context.env.AWS_REGION ?? 'us-east-1',
    endpoint: context.urls.sfn,
    credentials: {
      accessKeyId: context.env.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: context.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    },
  });
});

afterAll(() => {
  sfn.destroy();
});

const doc = () => dynamoDocumentClient(readEnv());
const table = () => readEnv().tableName;

function offeringInput(sellerId: string, offeringId = newOfferingId()): FanOutInput {
  return {
    sellerId,
    offeringId,
    publishedAt: new Date().toISOString(),
    payload: {
      itemName: 'Blue Lagoon print',
      itemmarket: offeringId,
      offeringId,
      tokenImage: '/media/items/lagoon/thumb.webp',
      sourcenick: 'lagoonstudio',
      sourcename: 'Lagoon Studio',
    },
  };
}

const describeExecution = (executionArn: string) =>
  sfn.send(new DescribeExecutionCommand({ executionArn }));

async function finished(
  executionArn: string,
  timeoutMs: number,
): Promise<DescribeExecutionCommandOutput & { state: FanOutState }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const described = await describeExecution(executionArn);
    if (described.status !== 'RUNNING') {
      if (described.status !== 'SUCCEEDED') {
        throw new Error(
          `${executionArn} ${described.status}: ${described.error} ${described.cause}`,
        );
      }
      return { ...described, state: JSON.parse(described.output ?? '{}') as FanOutState };
    }
    if (Date.now() > deadline) throw new Error(`${executionArn} still running`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Each follower's notifications (newest first). */
async function notificationsOf(userId: string) {
  const result = await doc().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': notificationsPartition(userId),
        ':prefix': NOTIFICATION_PREFIX,
      },
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

/** The unread counters of many users: their STATE items, 100 per BatchGetItem. */
async function marketCounters(userIds: readonly string[]): Promise<Map<string, unknown>> {
  const counters = new Map<string, unknown>();
  const batches: string[][] = [];
  for (let index = 0; index < userIds.length; index += 100) {
    batches.push(userIds.slice(index, index + 100) as string[]);
  }
  const read = async (ids: string[]) => {
    let keys: Record<string, unknown>[] = ids.map((id) => ({ ...stateKey(id) }));
    while (keys.length > 0) {
      const result = await doc().send(
        new BatchGetCommand({
          RequestItems: {
            [table()]: { Keys: keys, ProjectionExpression: 'user_id, unread, unread_market' },
          },
        }),
      );
      for (const item of result.Responses?.[table()] ?? []) {
        counters.set(String(item.user_id), [item.unread, item.unread_market]);
      }
      keys = (result.UnprocessedKeys?.[table()]?.Keys ?? []) as Record<string, unknown>[];
    }
  };
  const queue = [...batches];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) await read(batch);
    }),
  );
  return counters;
}

function sample<T>(values: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(values.length / count));
  return values.filter((_, index) => index % step === 0).slice(0, count);
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

describe('fan-out of a new offering to the followers (workflow on the twin)', () => {
  it(`notifies ${FOLLOWERS.toLocaleString('en')} followers once each, off the request path`, async () => {
    const seller = newId();
    const followers = Array.from({ length: FOLLOWERS }, () => newId()).sort();
    const small = newId();
    const smallFollowers = Array.from({ length: 10 }, () => newId());
    await putFollowEdges(seller, followers);
    await putFollowEdges(small, smallFollowers);

    // The start is one StartExecution, whatever the number of followers: it answers while the
    // first page (1,000 notifications) is still being written.
    const [smallStart, smallMs] = await timed(() => startFollowerFanOut(offeringInput(small)));
    const input = offeringInput(seller);
    const [start, bigMs] = await timed(() => startFollowerFanOut(input));
    const right = await describeExecution(start.executionArn);
    expect(start.started).toBe(true);
    expect(right.status).toBe('RUNNING');
    console.log(
      `[fan-out] start: ${smallMs.toFixed(1)} ms with 10 followers, ` +
        `${bigMs.toFixed(1)} ms with ${FOLLOWERS} (the call is the same)`,
    );

    const startedAt = performance.now();
    const done = await finished(start.executionArn, 280_000);
    console.log(
      `[fan-out] ${FOLLOWERS} followers notified in ${((performance.now() - startedAt) / 1000).toFixed(1)} s ` +
        `after the start answered (${done.state.pages} pages)`,
    );
    expect(done.state).toMatchObject({
      ...input,
      cursor: null,
      notified: FOLLOWERS,
      created: FOLLOWERS,
      segment: 0,
    });
    expect((await finished(smallStart.executionArn, 30_000)).state).toMatchObject({
      notified: 10,
      created: 10,
    });

    // Every follower: one unread market notification (the counters move in the notification's
    // own transaction, so 1 means exactly one was written).
    const counters = await marketCounters(followers);
    expect(counters.size).toBe(FOLLOWERS);
    const wrong = [...counters].filter(([, value]) => JSON.stringify(value) !== '[1,1]');
    expect(wrong).toEqual([]);
    // 200 of them read in full.
    const sampled = sample(followers, 200);
    for (const followerId of sampled) {
      const items = await notificationsOf(followerId);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        activity: 'market_newoffering',
        sourceid: seller,
        destinationid: followerId,
        read: false,
        section: 'market',
        payload: input.payload,
        itemmarket: input.offeringId,
      });
    }
    // Nobody else was told: the seller and the other seller's followers' are apart.
    expect(await notificationsOf(seller)).toEqual([]);

    // Publishing again starts nothing; running the workflow again creates nothing.
    const repeated = await startFollowerFanOut(input);
    expect(repeated).toEqual({ executionArn: start.executionArn, started: false });
    const rerun = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: twin().stateMachineArns[FOLLOWER_FANOUT_WORKFLOW],
        name: `rerun-${input.offeringId}`,
        input: JSON.stringify(input),
      }),
    );
    const again = await finished(rerun.executionArn ?? '', 280_000);
    expect(again.state).toMatchObject({ notified: FOLLOWERS, created: 0 });
    const after = await marketCounters(followers);
    expect([...after].filter(([, value]) => JSON.stringify(value) !== '[1,1]')).toEqual([]);
    for (const followerId of sample(followers, 20)) {
      expect(await notificationsOf(followerId)).toHaveLength(1);
    }
  }, 600_000);

  it('continues in a new execution when one has done its pages, notifying each follower once', async () => {
    const seller = newId();
    const followers = Array.from({ length: 25 }, () => newId()).sort();
    await putFollowEdges(seller, followers);
    const input = offeringInput(seller);
    // pageSize and pagesPerExecution shrink a 2,000-page execution to 2 pages of 10.
    const first = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: twin().stateMachineArns[FOLLOWER_FANOUT_WORKFLOW],
        name: `newoffering-${input.offeringId}`,
        input: JSON.stringify({ ...input, pageSize: 10, pagesPerExecution: 2 }),
      }),
    );
    const states: FanOutState[] = [];
    let arn: string | undefined = first.executionArn;
    while (arn !== undefined) {
      const done = await finished(arn, 60_000);
      states.push(done.state);
      arn = done.state.continuedAs;
    }
    expect(states.map((state) => [state.segment, state.pages, state.notified])).toEqual([
      [0, 2, 20],
      [1, 1, 25],
    ]);
    expect(states[0]?.continuedAs).toMatch(
      new RegExp(`:execution:follower-fanout:newoffering-${input.offeringId}-c1$`),
    );
    expect(states[1]).toMatchObject({ cursor: null, created: 25 });
    const counters = await marketCounters(followers);
    expect([...counters.values()]).toEqual(followers.map(() => [1, 1]));
  }, 120_000);

  it('tells a signed-in follower live, in the bell, and by e-mail when followed e-mails are on', async (context) => {
    if (!hasCognito()) context.skip();
    const seller = newId();
    const [follower, quiet] = await Promise.all([newUser('fanout'), newUser('fanout')]);
    await putFollowEdges(seller, [follower.id, quiet.id]);
    const prefs = await call('PUT', `/api/notifications/${follower.id}/preferences`, {
      token: follower.accessToken,
      body: { email: { followed: true } },
    });
    expect(prefs.status).toBe(200);

    const socket = new WebSocket(
      `${twin().urls.ws}?userid=${follower.id}&token=${encodeURIComponent(follower.accessToken)}`,
    );
    const inbox: Record<string, unknown>[] = [];
    socket.on('message', (data) => inbox.push(JSON.parse(String(data)) as Record<string, unknown>));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    try {
      const input = offeringInput(seller);
      const start = await startFollowerFanOut(input);
      await finished(start.executionArn, 60_000);
      const deadline = Date.now() + 5000;
      while (!inbox.some((m) => m.type === 'notification.created') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const live = inbox.find((m) => m.type === 'notification.created');
      expect(live).toMatchObject({
        counters: {
          unread: 1,
          version: 1,
          sections: { minter: 0, update: 0, asset: 0, market: 1 },
        } satisfies UnreadCounters,
      });
      const page = await call<{
        notifications: { id: string; activity: string; payload: unknown }[];
      }>('GET', `/api/notifications/${follower.id}`, { token: follower.accessToken });
      expect(page.json.data.notifications).toEqual([
        expect.objectContaining({
          id: live?.notificationId,
          activity: 'market_newoffering',
          payload: input.payload,
        }),
      ]);
      const outbox = (await (await gatewayFetch('/dev/outbox.json')).json()) as {
        messages: { kind: string; to?: string[]; subject?: string }[];
      };
      const mails = outbox.messages.filter(
        (m) => m.kind === 'email' && m.to?.includes(follower.email),
      );
      expect(mails.map((m) => m.subject)).toContain(
        '@lagoonstudio published a new offering: “Blue Lagoon print”.',
      );
      expect(
        outbox.messages.filter(
          (m) =>
            m.kind === 'email' &&
            m.to?.includes(quiet.email) &&
            m.subject?.includes('new offering'),
        ),
      ).toEqual([]);
    } finally {
      socket.close();
    }
  }, 120_000);
});
