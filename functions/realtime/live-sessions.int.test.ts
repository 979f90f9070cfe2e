import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { twin, useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { ENV, readEnv } from '../core/env';
import { call, hasCognito, logIn, makeAdmin, newUser } from '../accounts/testing/session';
import { createRealtimeRepo } from './realtime.repo';
import { publishToUser } from './publish';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from './realtime.rules';

/**
 * The live channel and sessions on the twin (issue 8 §4): logout and an admin block close the
 * user's open sockets (the twin's WebSocket gateway, as @connections DeleteConnection in AWS) and
 * delete their records, so nothing private reaches a socket opened before; and the per-connection
 * subscription limit holds under a burst of concurrent subscribes. The sockets and the HTTP calls
 * go to the same twin, whose handlers close the connections.
 */
const sockets: WebSocket[] = [];

beforeAll(() => {
  useTwinEnv();
  process.env[ENV.wsConnectionsEndpoint] = twin().urls.wsConnections;
});

afterAll(() => {
  for (const socket of sockets) socket.terminate();
});

const repo = () => {
  const env = readEnv();
  return createRealtimeRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
};

interface Client {
  socket: WebSocket;
  inbox: Record<string, unknown>[];
  closed: Promise<number>;
}

async function open(userId: string, accessToken: string): Promise<Client> {
  const socket = new WebSocket(
    `${twin().urls.ws}?userid=${userId}&token=${encodeURIComponent(accessToken)}`,
  );
  sockets.push(socket);
  const inbox: Record<string, unknown>[] = [];
  socket.on('message', (data) => inbox.push(JSON.parse(String(data)) as Record<string, unknown>));
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, inbox, closed };
}

async function eventually(check: () => boolean | Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const progress = (itemId: string) => ({
  type: 'item.creation' as const,
  item_id: itemId,
  status: 'uploading-token' as const,
  written: 1,
  total: 2,
  error: null,
});

describe('live channel and sessions on the twin', () => {
  it('logout closes every socket of the user; nothing private reaches them after', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser('wslogout');
    const [tab1, tab2] = await Promise.all([
      open(user.id, user.accessToken),
      open(user.id, user.accessToken),
    ]);
    expect(await repo().listUserConnections(user.id)).toHaveLength(2);

    const before = await publishToUser(user.id, progress('01BEFORELOGOUT0000000000000'));
    expect(before.delivered).toBe(2);
    await eventually(() => tab1.inbox.length === 1 && tab2.inbox.length === 1);

    const loggedOut = await call('POST', '/api/session/logout', { token: user.accessToken });
    expect(loggedOut.status).toBe(200);
    // Closed by the server (the gateway's DeleteConnection).
    await Promise.all([tab1.closed, tab2.closed]);
    expect(tab1.socket.readyState).toBe(WebSocket.CLOSED);
    expect(await repo().listUserConnections(user.id)).toEqual([]);

    // A new sign-in's events go to its own sockets only. Tokens carry their sign-in time in whole
    // seconds, so a sign-in in the second of the logout counts as revoked (as in
    // accounts/sessions.int.test.ts); a person's pin login takes longer than that.
    await new Promise((resolve) => setTimeout(resolve, 1050 - (Date.now() % 1000)));
    const again = await logIn(user);
    const tab3 = await open(user.id, again.accessToken);
    const after = await publishToUser(user.id, progress('01AFTERLOGOUT00000000000000'));
    expect(after.delivered).toBe(1);
    await eventually(() => tab3.inbox.length === 1);
    expect(tab1.inbox.map((message) => message.item_id)).toEqual(['01BEFORELOGOUT0000000000000']);
    expect(tab2.inbox.map((message) => message.item_id)).toEqual(['01BEFORELOGOUT0000000000000']);
  });

  it('an admin block closes the blocked user’s sockets and deletes their records', async (context) => {
    if (!hasCognito()) context.skip();
    const [admin, user] = await Promise.all([newUser('wsadmin'), newUser('wsblocked')]);
    await makeAdmin(admin.id);
    const adminTokens = await logIn(admin);
    const tab = await open(user.id, user.accessToken);
    expect(await repo().listUserConnections(user.id)).toHaveLength(1);

    const blocked = await call('POST', `/api/admin/users/${user.id}/block`, {
      token: adminTokens.accessToken,
    });
    expect(blocked.status).toBe(200);
    await tab.closed;
    expect(await repo().listUserConnections(user.id)).toEqual([]);
    const after = await publishToUser(user.id, progress('01AFTERBLOCK000000000000000'));
    expect(after.delivered).toBe(0);
    expect(tab.inbox).toEqual([]);
  });

  it(`accepts exactly ${MAX_SUBSCRIPTIONS_PER_CONNECTION} of 120 concurrent subscribes on one connection`, async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser('wsburst');
    const tab = await open(user.id, user.accessToken);
    const run = randomUUID().replaceAll('-', '').slice(0, 12);
    const topics = Array.from({ length: 120 }, (_, i) => `item:b${run}${i}`);
    for (const topic of topics) tab.socket.send(JSON.stringify({ action: 'subscribe', topic }));
    await eventually(() => tab.inbox.length === topics.length, 30_000);
    const subscribed = tab.inbox.filter((message) => message.type === 'subscribed');
    const refused = tab.inbox.filter((message) => message.type === 'error');
    expect(subscribed).toHaveLength(MAX_SUBSCRIPTIONS_PER_CONNECTION);
    expect(refused).toHaveLength(topics.length - MAX_SUBSCRIPTIONS_PER_CONNECTION);
    expect(refused[0]).toMatchObject({ code: 'invalid_request' });

    const [connection] = await repo().listUserConnections(user.id);
    const stored = await Promise.all(
      topics.map(async (topic) => (await repo().listTopicSubscribers(topic as never)).length),
    );
    expect(stored.reduce((sum, count) => sum + count, 0)).toBe(MAX_SUBSCRIPTIONS_PER_CONNECTION);
    expect(connection).toBeDefined();

    // Unsubscribing frees a place, which the next subscribe takes.
    const first = subscribed[0]?.topic as string;
    tab.inbox.length = 0;
    tab.socket.send(JSON.stringify({ action: 'unsubscribe', topic: first }));
    await eventually(() => tab.inbox.length === 1);
    tab.socket.send(JSON.stringify({ action: 'subscribe', topic: 'item:burstextra' }));
    await eventually(() => tab.inbox.length === 2);
    expect(tab.inbox[1]).toMatchObject({ type: 'subscribed', topic: 'item:burstextra' });
    tab.socket.send(JSON.stringify({ action: 'subscribe', topic: 'item:burstmore' }));
    await eventually(() => tab.inbox.length === 3);
    expect(tab.inbox[2]).toMatchObject({ type: 'error', code: 'invalid_request' });
  });
});
