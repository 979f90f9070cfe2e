import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { startWsGateway, type WsGateway } from '../../infra/local/ws-gateway';
import { dynamoDocumentClient } from '../core/clients';
import { ENV, readEnv } from '../core/env';
import { call, hasCognito, newUser } from '../accounts/testing/session';
import { createRealtimeRepo } from './realtime.repo';
import { publishToTopic, publishToUser } from './publish';

/**
 * The live channel end to end on the twin: the local WebSocket gateway with the route table's
 * routes and the real handlers, DynamoDB Local, the real ws client and the real management API
 * client (through publishToUser/publishToTopic).
 */
let gateway: WsGateway;

beforeAll(async () => {
  useTwinEnv();
  gateway = await startWsGateway({ log: () => undefined });
  process.env[ENV.wsConnectionsEndpoint] = gateway.connectionsEndpoint;
});

afterAll(async () => {
  await gateway.stop();
});

const repo = () => {
  const env = readEnv();
  return createRealtimeRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
};

interface Client {
  socket: WebSocket;
  next(predicate?: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  send(message: unknown): void;
}

/** The handshake's HTTP status when the gateway refuses it. */
async function refused(query: string): Promise<number> {
  const socket = new WebSocket(`${gateway.url}${query}`);
  // terminate() below makes ws emit an 'error' for the aborted handshake: expected here.
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('open', () => {
      socket.close();
      reject(new Error(`the handshake for ${query} was accepted`));
    });
  });
}

async function open(query: string): Promise<Client> {
  const socket = new WebSocket(`${gateway.url}${query}`);
  const inbox: Record<string, unknown>[] = [];
  const waiting: (() => void)[] = [];
  socket.on('message', (data) => {
    inbox.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const wake of waiting.splice(0)) wake();
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async next(predicate = () => true) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const index = inbox.findIndex(predicate);
        if (index >= 0) return inbox.splice(index, 1)[0] as Record<string, unknown>;
        if (Date.now() > deadline)
          throw new Error(`no such message; inbox ${JSON.stringify(inbox)}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

async function eventually(check: () => Promise<boolean>) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('live channel on the twin', () => {
  it('registers, pings, subscribes, delivers and forgets connections', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser('ws');
    const userId = user.id;
    const topic = `offering:oF${randomUUID().replaceAll('-', '')}` as const;
    const client = await open(`?userid=${userId}&token=${encodeURIComponent(user.accessToken)}`);
    const guest = await open('?userid=<annon>');

    const [connection] = await repo().listUserConnections(userId);
    expect(connection?.userId).toBe(userId);

    client.send({ action: 'ping' });
    expect(await client.next()).toMatchObject({ type: 'pong' });

    client.send({ action: 'subscribe', topic });
    guest.send({ action: 'subscribe', topic });
    expect(await client.next()).toMatchObject({ type: 'subscribed', topic });
    expect(await guest.next()).toMatchObject({ type: 'subscribed', topic });

    const toTopic = await publishToTopic(topic, {
      type: 'bid.new',
      offeringId: topic.slice('offering:'.length),
    });
    expect(toTopic).toMatchObject({ delivered: 2, gone: 0, failed: 0 });
    expect(await guest.next()).toEqual({
      type: 'bid.new',
      id: toTopic.id,
      topic,
      offeringId: topic.slice('offering:'.length),
    });
    expect(await client.next()).toMatchObject({ type: 'bid.new', id: toTopic.id });

    const toUser = await publishToUser(userId, { type: 'payments.cards_updated' });
    expect(toUser).toMatchObject({ delivered: 1 });
    expect(await client.next()).toEqual({ type: 'payments.cards_updated', id: toUser.id });

    client.send('{"action":"dance"}');
    expect(await client.next()).toMatchObject({ type: 'error', code: 'invalid_request' });

    client.socket.close(1000);
    await eventually(async () => (await repo().listUserConnections(userId)).length === 0);
    await eventually(async () => (await repo().listTopicSubscribers(topic)).length === 1);
    guest.socket.close(1000);
    await eventually(async () => (await repo().listTopicSubscribers(topic)).length === 0);
  });

  it("refuses a userid without its token, someone else's channel, bad and revoked tokens", async (context) => {
    if (!hasCognito()) context.skip();
    const [owner, other] = await Promise.all([newUser('wsa'), newUser('wsb')]);
    const token = (value: string) => `&token=${encodeURIComponent(value)}`;
    expect(await refused(`?userid=${owner.id}`)).toBe(401);
    expect(await refused(`?userid=${owner.id}${token(other.accessToken)}`)).toBe(403);
    const [head, payload] = owner.accessToken.split('.') as [string, string, string];
    expect(await refused(`?userid=${owner.id}${token(`${head}.${payload}.AAAA`)}`)).toBe(401);
    // The id token is not an access token.
    expect(await refused(`?userid=${owner.id}${token(owner.idToken)}`)).toBe(401);
    expect(await repo().listUserConnections(owner.id)).toEqual([]);

    // After logout (revocation) the same token no longer opens the channel.
    const loggedOut = await call('POST', '/api/session/logout', { token: owner.accessToken });
    expect(loggedOut.status).toBe(200);
    expect(await refused(`?userid=${owner.id}${token(owner.accessToken)}`)).toBe(401);
  });

  it('deletes connections that answer 410 while publishing', async () => {
    const userId = `u${randomUUID().replaceAll('-', '')}`;
    await repo().putConnection({
      connectionId: 'stale0000000000=',
      userId,
      connectedAt: new Date().toISOString(),
      ttl: Math.ceil(Date.now() / 1000) + 600,
    });
    const result = await publishToUser(userId, { type: 'payments.cards_updated' });
    expect(result).toMatchObject({ delivered: 0, gone: 1 });
    expect(await repo().listUserConnections(userId)).toEqual([]);
  });
});
