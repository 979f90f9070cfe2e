import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/errors';
import { GUEST_USER_ID } from '../../shared/realtime/messages';
import type { AccessTokenVerifier } from '../core/access-token';
import type { AuthContext } from '../core/auth';
import { connect, identifyByToken, type ConnectRequest } from './connect';
import { disconnect } from './disconnect';
import { handleMessage } from './handle-message';
import { ping } from './ping';
import { publishToTopic, publishToUser } from './publish';
import { memoryRealtimeRepo, memorySender } from './realtime.fake';
import {
  connectionKey,
  subscriptionKey,
  topicSubscribersIndexKeys,
  userConnectionsIndexKeys,
} from './realtime.keys';
import {
  CONNECTION_MAX_MS,
  connectionTtl,
  isExpired,
  MAX_SUBSCRIPTIONS_PER_CONNECTION,
  subscriptionTtl,
} from './realtime.rules';
import { wsHandler } from './ws-handler';
import type { WsEvent } from './ws-event';

const NOW = new Date('2030-01-01T10:00:00.000Z');
const AT = NOW.getTime();
const seconds = (ms: number) => Math.ceil(ms / 1000);

function request(overrides: Partial<ConnectRequest> = {}): ConnectRequest {
  return { connectionId: 'c1=', connectedAt: AT, query: {}, headers: {}, ...overrides };
}

function setup() {
  const repo = memoryRealtimeRepo();
  const sender = memorySender();
  return { repo, sender, now: () => NOW };
}

/** Test tokens: `token-<user>` is a valid access token of <user>; anything else is refused. */
const verifyTestToken: AccessTokenVerifier = async (token) => {
  const match = /^token-(.+)$/.exec(token);
  if (match?.[1] === undefined) {
    throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
  }
  return { userId: match[1], email: undefined, groups: [], claims: {} };
};
const identifyByTestToken = identifyByToken({
  verify: verifyTestToken,
  checkSession: async () => {},
});
/** The query of a logged-in user's connection. */
const userQuery = (userid: string) => ({ userid, token: `token-${userid}` });

describe('realtime keys and rules', () => {
  it('builds the access-pattern keys', () => {
    expect(connectionKey('c1=')).toEqual({ pk: 'WSCONN#c1=', sk: 'CONNECTION' });
    expect(subscriptionKey('c1=', 'offering:oF1')).toEqual({
      pk: 'WSCONN#c1=',
      sk: 'SUB#offering:oF1',
    });
    expect(userConnectionsIndexKeys('u1', 'c1=')).toEqual({
      gsi1pk: 'WSUSER#u1',
      gsi1sk: 'WSCONN#c1=',
    });
    expect(topicSubscribersIndexKeys('offering:oF1', 'c1=')).toEqual({
      gsi1pk: 'WSTOPIC#offering:oF1',
      gsi1sk: 'WSCONN#c1=',
    });
  });

  it.each([
    ['just connected: idle window', AT, AT, seconds(AT + 15 * 60_000)],
    ['pinged 1 h in', AT, AT + 3_600_000, seconds(AT + 3_600_000 + 15 * 60_000)],
    [
      'near the 2 h limit: capped',
      AT,
      AT + 115 * 60_000,
      seconds(AT + CONNECTION_MAX_MS + 5 * 60_000),
    ],
  ])('connection ttl, %s', (_case, connectedAt, now, ttl) => {
    expect(connectionTtl(connectedAt, new Date(now))).toBe(ttl);
  });

  it('gives subscriptions the longest life of their connection', () => {
    expect(subscriptionTtl(AT)).toBe(seconds(AT + CONNECTION_MAX_MS + 5 * 60_000));
    expect(isExpired(seconds(AT), NOW)).toBe(true);
    expect(isExpired(seconds(AT) + 1, NOW)).toBe(false);
  });
});

describe('connect / disconnect', () => {
  it("stores the connection of the access token's user", async () => {
    const { repo } = setup();
    const result = await connect(
      { repo, identify: identifyByTestToken },
      request({ query: userQuery('01J0USER') }),
      NOW,
    );
    expect(result).toEqual({ userId: '01J0USER' });
    expect(repo.connections.get('c1=')).toEqual({
      connectionId: 'c1=',
      userId: '01J0USER',
      connectedAt: NOW.toISOString(),
      ttl: connectionTtl(AT, NOW),
    });
  });

  it.each([[{}], [{ userid: '' }], [{ userid: GUEST_USER_ID }]])(
    'stores a guest for query %j',
    async (query) => {
      const { repo } = setup();
      await connect({ repo, identify: identifyByTestToken }, request({ query }), NOW);
      expect(repo.connections.get('c1=')?.userId).toBe(GUEST_USER_ID);
    },
  );

  it.each([
    ['a userid without a token', { userid: 'u1' }, 'unauthenticated', 401],
    ['a token that does not verify', { userid: 'u1', token: 'forged' }, 'unauthenticated', 401],
    ['a token alone that does not verify', { token: 'forged' }, 'unauthenticated', 401],
    ["another user's userid", { userid: 'u2', token: 'token-u1' }, 'forbidden', 403],
  ])('refuses %s', async (_case, query, code, status) => {
    const { repo } = setup();
    await expect(
      connect({ repo, identify: identifyByTestToken }, request({ query }), NOW),
    ).rejects.toMatchObject({ code, status });
    expect(repo.connections.size).toBe(0);
  });

  it('takes the user from the token when the userid is left out', async () => {
    const { repo } = setup();
    await connect(
      { repo, identify: identifyByTestToken },
      request({ query: { token: 'token-u1' } }),
      NOW,
    );
    expect(repo.connections.get('c1=')?.userId).toBe('u1');
  });

  it('runs the session check: a blocked account cannot open its channel', async () => {
    const { repo } = setup();
    const seen: AuthContext[] = [];
    const identify = identifyByToken({
      verify: verifyTestToken,
      checkSession: async (auth) => {
        seen.push(auth);
        throw new DomainError('login.errors.403', { message: 'Account temporally blocked.' });
      },
    });
    await expect(
      connect({ repo, identify }, request({ query: userQuery('u1') }), NOW),
    ).rejects.toMatchObject({ code: 'login.errors.403', status: 403 });
    expect(seen.map((auth) => auth.userId)).toEqual(['u1']);
    expect(repo.connections.size).toBe(0);
  });

  it('refuses a malformed userid', async () => {
    const { repo } = setup();
    await expect(
      connect({ repo, identify: identifyByTestToken }, request({ query: { userid: 'a#b' } }), NOW),
    ).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
    expect(repo.connections.size).toBe(0);
  });

  it('forgets the connection and its subscriptions on disconnect', async () => {
    const { repo } = setup();
    await connect(
      { repo, identify: identifyByTestToken },
      request({ query: userQuery('u1') }),
      NOW,
    );
    await repo.addSubscription({ connectionId: 'c1=', topic: 'offering:oF1', ttl: 1 }, 50);
    await repo.addSubscription({ connectionId: 'c2=', topic: 'offering:oF1', ttl: 1 }, 50);
    await disconnect({ repo }, { connectionId: 'c1=' });
    expect(repo.connections.size).toBe(0);
    expect([...repo.subscriptions.values()].map((s) => s.connectionId)).toEqual(['c2=']);
  });
});

describe('ping', () => {
  it('refreshes the ttl and answers pong', async () => {
    const deps = setup();
    await connect({ repo: deps.repo, identify: identifyByTestToken }, request(), NOW);
    const later = new Date(AT + 30 * 60_000);
    expect(await ping(deps, { connectionId: 'c1=', connectedAt: AT }, later)).toBe('pong');
    expect(deps.repo.connections.get('c1=')?.ttl).toBe(connectionTtl(AT, later));
    expect(deps.sender.sent).toEqual([
      { connectionId: 'c1=', data: { type: 'pong', id: expect.any(String) } },
    ]);
  });

  it('closes a connection whose item is gone, so the client reconnects and registers again', async () => {
    const deps = setup();
    expect(await ping(deps, { connectionId: 'c9=', connectedAt: AT }, NOW)).toBe('reconnect');
    expect(deps.sender.disconnected).toEqual(['c9=']);
    expect(deps.sender.sent).toEqual([]);
  });
});

describe('$default messages', () => {
  const send = (deps: ReturnType<typeof setup>, body: string | undefined) =>
    handleMessage(deps, { connectionId: 'c1=', connectedAt: AT, body }, NOW);

  it('subscribes and unsubscribes to a topic', async () => {
    const deps = setup();
    await send(deps, JSON.stringify({ action: 'subscribe', topic: 'offering:oF1' }));
    expect([...deps.repo.subscriptions.values()]).toEqual([
      { connectionId: 'c1=', topic: 'offering:oF1', ttl: subscriptionTtl(AT) },
    ]);
    await send(deps, JSON.stringify({ action: 'unsubscribe', topic: 'offering:oF1' }));
    expect(deps.repo.subscriptions.size).toBe(0);
    expect(deps.sender.sent.map((s) => s.data)).toEqual([
      { type: 'subscribed', id: expect.any(String), topic: 'offering:oF1' },
      { type: 'unsubscribed', id: expect.any(String), topic: 'offering:oF1' },
    ]);
  });

  it.each([
    ['not JSON', 'hello', 'invalid_json'],
    ['no body', undefined, 'invalid_json'],
    ['an unknown action', JSON.stringify({ action: 'dance' }), 'invalid_request'],
    ['a bad topic', JSON.stringify({ action: 'subscribe', topic: 'room:1' }), 'invalid_request'],
    ['a bare value', '42', 'invalid_request'],
  ])('answers an error message for %s', async (_case, body, code) => {
    const deps = setup();
    await send(deps, body);
    expect(deps.sender.sent).toEqual([
      {
        connectionId: 'c1=',
        data: { type: 'error', id: expect.any(String), code, message: expect.any(String) },
      },
    ]);
    expect(deps.repo.subscriptions.size).toBe(0);
  });

  it('caps the topics of one connection', async () => {
    const deps = setup();
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_CONNECTION; i += 1) {
      await deps.repo.addSubscription(
        { connectionId: 'c1=', topic: `item:i${i}`, ttl: 1 },
        MAX_SUBSCRIPTIONS_PER_CONNECTION,
      );
    }
    await send(deps, JSON.stringify({ action: 'subscribe', topic: 'offering:oF1' }));
    expect(deps.sender.sent[0]?.data).toMatchObject({ type: 'error', code: 'invalid_request' });
    expect(deps.repo.subscriptions.size).toBe(MAX_SUBSCRIPTIONS_PER_CONNECTION);
  });
});

describe('publishing', () => {
  async function twoTabsAndAGuest(deps: ReturnType<typeof setup>) {
    const identify = identifyByTestToken;
    await connect(
      { repo: deps.repo, identify },
      request({ connectionId: 'tab1=', query: userQuery('u1') }),
      NOW,
    );
    await connect(
      { repo: deps.repo, identify },
      request({ connectionId: 'tab2=', query: userQuery('u1') }),
      NOW,
    );
    await connect(
      { repo: deps.repo, identify },
      request({ connectionId: 'other=', query: userQuery('u2') }),
      NOW,
    );
    await connect({ repo: deps.repo, identify }, request({ connectionId: 'guest=' }), NOW);
  }

  it('sends to every connection of a user, once, with one message id, and drops gone ones', async () => {
    const deps = setup();
    await twoTabsAndAGuest(deps);
    deps.sender.gone.add('tab2=');
    const result = await publishToUser('u1', { type: 'order.paid', orderId: '01JORDER' }, deps);
    expect(result).toEqual({ id: expect.any(String), delivered: 1, gone: 1, failed: 0 });
    expect(deps.sender.sent).toEqual([
      { connectionId: 'tab1=', data: { type: 'order.paid', id: result.id, orderId: '01JORDER' } },
    ]);
    expect([...deps.repo.connections.keys()].sort()).toEqual(['guest=', 'other=', 'tab1=']);
  });

  it('keeps a given message id (a retried publish stays a duplicate for clients)', async () => {
    const deps = setup();
    await twoTabsAndAGuest(deps);
    const result = await publishToUser('u2', { type: 'payments.cards_updated', id: 'N1' }, deps);
    expect(result.id).toBe('N1');
    expect(deps.sender.sent[0]?.data).toEqual({ type: 'payments.cards_updated', id: 'N1' });
  });

  it('skips expired connections and refuses guests and invalid messages', async () => {
    const deps = setup();
    await deps.repo.putConnection({
      connectionId: 'old=',
      userId: 'u1',
      connectedAt: '',
      ttl: seconds(AT),
    });
    expect(await publishToUser('u1', { type: 'payments.cards_updated' }, deps)).toMatchObject({
      delivered: 0,
    });
    await expect(
      publishToUser(GUEST_USER_ID, { type: 'payments.cards_updated' }, deps),
    ).rejects.toThrow(RangeError);
    await expect(
      publishToUser('u1', { type: 'order.paid', orderId: 'bad id' }, deps),
    ).rejects.toThrow();
  });

  it('sends to the subscribers of a topic, naming the topic', async () => {
    const deps = setup();
    await twoTabsAndAGuest(deps);
    const subscribe = (connectionId: string, topic: string) =>
      handleMessage(
        deps,
        { connectionId, connectedAt: AT, body: JSON.stringify({ action: 'subscribe', topic }) },
        NOW,
      );
    await subscribe('guest=', 'offering:oF1');
    await subscribe('tab1=', 'offering:oF1');
    await subscribe('other=', 'offering:oF2');
    deps.sender.sent.length = 0;
    const result = await publishToTopic(
      'offering:oF1',
      { type: 'bid.new', offeringId: 'oF1' },
      deps,
    );
    expect(result).toMatchObject({ delivered: 2, gone: 0, failed: 0 });
    expect(deps.sender.sent.map((s) => s.connectionId).sort()).toEqual(['guest=', 'tab1=']);
    expect(deps.sender.sent[0]?.data).toEqual({
      type: 'bid.new',
      id: result.id,
      topic: 'offering:oF1',
      offeringId: 'oF1',
    });
  });

  it('counts a failing send without stopping the others', async () => {
    const deps = setup();
    await twoTabsAndAGuest(deps);
    const sender = {
      ...deps.sender,
      send: async (connectionId: string, data: string) => {
        if (connectionId === 'tab1=') throw new Error('LimitExceededException');
        return deps.sender.send(connectionId, data);
      },
    };
    const result = await publishToUser(
      'u1',
      { type: 'payments.cards_updated' },
      { ...deps, sender },
    );
    expect(result).toMatchObject({ delivered: 1, gone: 0, failed: 1 });
  });
});

describe('wsHandler', () => {
  const event = (eventType: 'CONNECT' | 'MESSAGE'): WsEvent => ({
    requestContext: {
      routeKey: eventType === 'CONNECT' ? '$connect' : '$default',
      eventType,
      connectionId: 'c1=',
      connectedAt: AT,
      requestId: 'r1=',
      extendedRequestId: 'r1=',
      requestTime: '01/Jan/2030:10:00:00 +0000',
      requestTimeEpoch: AT,
      messageDirection: 'IN',
      stage: 'local',
      domainName: 'localhost',
      apiId: 'local',
      identity: { sourceIp: '127.0.0.1' },
    },
    isBase64Encoded: false,
  });

  it('refuses a handshake with the status of a domain error', async () => {
    const handler = wsHandler(async () => {
      throw new DomainError('unauthenticated');
    });
    expect(await handler(event('CONNECT'))).toEqual({ statusCode: 401 });
  });

  it('rethrows unexpected errors (API Gateway answers them)', async () => {
    const handler = wsHandler(async () => {
      throw new DomainError('invalid_request');
    });
    await expect(handler(event('MESSAGE'))).rejects.toBeInstanceOf(DomainError);
  });
});
