import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayFetch, twin, useTwinEnv } from '../../infra/local/test/twin-context';
import { call, hasCognito, newUser, type TestUser } from '../accounts/testing/session';
import type {
  MarkNotificationBody,
  NotificationPage,
  NotificationPreferences,
  UnreadCounters,
} from '../../shared/schemas/notifications';
import { notifyDeps } from './notifications.deps';
import { notify, type NotifyInput } from './notify';

/**
 * Notifications on the twin: notify() (as the features call it) against DynamoDB Local, SES (the
 * outbox) and a live-channel gateway; the calls through the local HTTP gateway with real tokens.
 */
const RUN = `n${Date.now().toString(36)}`;

beforeAll(() => {
  useTwinEnv();
});

let sequence = 0;
const emit = (to: string, activity: NotifyInput['activity'], extra: Partial<NotifyInput> = {}) =>
  notify(
    notifyDeps(),
    {
      to,
      activity,
      eventKey: `${RUN}:${(sequence += 1)}`,
      payload: { itemName: 'Blue Lagoon print', itemmarket: 'ITEM1' },
      ...extra,
    },
    new Date(),
  );

const counters = async (user: TestUser) => {
  const answer = await call<UnreadCounters>('GET', `/api/notifications/${user.id}/unread`, {
    token: user.accessToken,
  });
  expect(answer.status).toBe(200);
  return answer.json.data;
};

const list = async (user: TestUser, query = '') => {
  const answer = await call<NotificationPage>('GET', `/api/notifications/${user.id}${query}`, {
    token: user.accessToken,
  });
  expect(answer.status).toBe(200);
  return answer.json.data;
};

const mark = (user: TestUser, id: string, body: MarkNotificationBody) =>
  call<{ notification: { read: boolean }; counters: UnreadCounters }>(
    'PUT',
    `/api/notifications/${user.id}/${id}`,
    { token: user.accessToken, body },
  );

interface OutboxEmail {
  kind: string;
  to?: string[];
  subject?: string;
  text?: string | null;
  html?: string | null;
}

async function emailsTo(address: string): Promise<OutboxEmail[]> {
  const response = await gatewayFetch('/dev/outbox.json');
  const { messages } = (await response.json()) as { messages: OutboxEmail[] };
  return messages.filter((message) => message.kind === 'email' && message.to?.includes(address));
}

function liveClient(user: TestUser) {
  const socket = new WebSocket(
    `${twin().urls.ws}?userid=${user.id}&token=${encodeURIComponent(user.accessToken)}`,
  );
  const inbox: Record<string, unknown>[] = [];
  socket.on('message', (data) => inbox.push(JSON.parse(String(data)) as Record<string, unknown>));
  return {
    socket,
    opened: new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    }),
    async next(type: string) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const index = inbox.findIndex((message) => message.type === type);
        if (index >= 0) return inbox.splice(index, 1)[0] as Record<string, unknown>;
        if (Date.now() > deadline) throw new Error(`no ${type}; inbox ${JSON.stringify(inbox)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

describe('notifications on the twin', () => {
  it('lists newest first in pages of 10, counts unread per section, refuses other users', async (context) => {
    if (!hasCognito()) context.skip();
    const [user, other] = await Promise.all([newUser(RUN), newUser(RUN)]);
    expect(await counters(user)).toEqual({
      unread: 0,
      version: 0,
      sections: { minter: 0, update: 0, asset: 0, market: 0 },
    });
    expect(await list(user)).toEqual({ notifications: [], nextCursor: null });
    for (let index = 0; index < 11; index += 1) await emit(user.id, 'market_ordercreated');
    await emit(user.id, 'minter_pending', { payload: { status: 'pending' } });
    expect(await counters(user)).toEqual({
      unread: 12,
      version: 12,
      sections: { minter: 1, update: 0, asset: 0, market: 11 },
    });
    const first = await list(user);
    expect(first.notifications).toHaveLength(10);
    expect(first.notifications[0]).toMatchObject({
      activity: 'minter_pending',
      destinationid: user.id,
      read: false,
      type: 'minter',
      access: 'private',
    });
    const times = first.notifications.map((notification) => notification.createdat);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const second = await list(user, `?cursor=${first.nextCursor ?? ''}`);
    expect(second.notifications).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const minter = await list(user, '?section=minter');
    expect(minter.notifications.map((n) => n.activity)).toEqual(['minter_pending']);

    // {id} must be the caller; a cursor of another list is refused.
    const foreign = await call('GET', `/api/notifications/${user.id}`, {
      token: other.accessToken,
    });
    expect(foreign.status).toBe(403);
    expect((await call('GET', `/api/notifications/${user.id}`)).status).toBe(401);
    const forged = await call('GET', `/api/notifications/${user.id}?cursor=eyJzIjoieCJ9`, {
      token: user.accessToken,
    });
    expect(forged.status).toBe(400);
    expect(forged.json.error.code).toBe('invalid_request');
  });

  it('is idempotent per source event, and exact under concurrency', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser(RUN);
    const input: NotifyInput = {
      to: user.id,
      activity: 'market_bidcreated',
      eventKey: `${RUN}:dup`,
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => notify(notifyDeps(), input, new Date())),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    // 40 different events at once: the counter is exact.
    await Promise.all(Array.from({ length: 40 }, () => emit(user.id, 'market_bidcreated')));
    expect((await counters(user)).unread).toBe(41);
  });

  it('marks read and back to unread, and marks all read in one write', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser(RUN);
    const a = await emit(user.id, 'market_orderpaid');
    await emit(user.id, 'asset_transfer');
    const read = await mark(user, a.id, { read: true, mode: 'sidebar' });
    expect(read.status).toBe(200);
    expect(read.json.data.notification.read).toBe(true);
    // Every change of the counters moves their version on (two notifications, then this read), so
    // a tab keeps the newest copy whatever order they reach it in.
    expect(read.json.data.counters).toMatchObject({
      unread: 1,
      version: 3,
      sections: { market: 0, asset: 1 },
    });
    // A repeat changes nothing; back to unread counts again.
    expect((await mark(user, a.id, { read: true })).json.data.counters).toMatchObject({
      unread: 1,
      version: 3,
    });
    expect((await mark(user, a.id, { read: false })).json.data.counters).toMatchObject({
      unread: 2,
      version: 4,
    });
    expect((await mark(user, 'NOPE', { read: true })).json.error.code).toBe(
      'notifications.errors.not_found',
    );
    expect(
      (await mark(user, a.id, { read: true, activity: 'asset_transfer' })).json.error.code,
    ).toBe('notifications.errors.activity_mismatch');

    const all = await call<UnreadCounters>(
      'POST',
      `/api/notifications/${user.id}/sidebarmarkallread`,
      { token: user.accessToken },
    );
    expect(all.json.data).toMatchObject({ unread: 0, version: 5 });
    expect((await list(user)).notifications.every((n) => n.read)).toBe(true);
    // After mark-all: one back to unread, a new one arrives; both count.
    expect((await mark(user, a.id, { read: false })).json.data.counters).toMatchObject({
      unread: 1,
      version: 6,
    });
    await emit(user.id, 'market_ordercancelled');
    expect(await counters(user)).toMatchObject({ unread: 2, version: 7 });
    const after = await list(user);
    expect(after.notifications.filter((n) => !n.read).map((n) => n.activity)).toEqual([
      'market_ordercancelled',
      'market_orderpaid',
    ]);
    // A state-changing GET is not offered.
    const get = await call('GET', `/api/notifications/${user.id}/sidebarmarkallread`, {
      token: user.accessToken,
    });
    expect(get.status).not.toBe(200);
  });

  it('marks all read with 2,000 unread, and the counts stay exact with notifications racing it', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser(RUN);
    const deps = notifyDeps();
    for (let batch = 0; batch < 20; batch += 1) {
      await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          notify(
            deps,
            {
              to: user.id,
              activity: 'market_bidcreated',
              eventKey: `${RUN}:bulk:${batch}:${index}`,
            },
            new Date(),
          ),
        ),
      );
    }
    expect((await counters(user)).unread).toBe(2000);
    const racing = Promise.all(Array.from({ length: 10 }, () => emit(user.id, 'market_outbid')));
    const all = await call<UnreadCounters>(
      'POST',
      `/api/notifications/${user.id}/sidebarmarkallread`,
      { token: user.accessToken },
    );
    expect(all.status).toBe(200);
    await racing;
    // Whatever interleaving: the counter equals the unread notifications listed.
    const unreadListed: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await list(user, cursor === '' ? '' : `?cursor=${cursor}`);
      unreadListed.push(page.notifications.filter((n) => !n.read).length);
      cursor = page.nextCursor;
      if (unreadListed.length > 3 && unreadListed.slice(-3).every((n) => n === 0)) break;
    }
    const unread = unreadListed.reduce((sum, n) => sum + n, 0);
    expect((await counters(user)).unread).toBe(unread);
    expect(unread).toBeLessThanOrEqual(10);
  });

  it('pushes notification.created with the counters to every open tab; after a reconnect nothing is lost', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser(RUN);
    const tabs = [liveClient(user), liveClient(user)];
    await Promise.all(tabs.map((tab) => tab.opened));
    const sent = await emit(user.id, 'market_ordercreated');
    for (const tab of tabs) {
      expect(await tab.next('notification.created')).toMatchObject({
        notificationId: sent.id,
        counters: { unread: 1, sections: { market: 1 } },
      });
    }
    // Read in one tab: the other hears the new counters.
    await mark(user, sent.id, { read: true });
    expect(await tabs[1]?.next('notification.updated')).toMatchObject({ counters: { unread: 0 } });
    for (const tab of tabs) tab.socket.close();
    // While offline: it is stored, and the counters a reconnecting client fetches include it.
    const offline = await emit(user.id, 'market_transfer');
    expect((await counters(user)).unread).toBe(1);
    expect((await list(user)).notifications[0]?.id).toBe(offline.id);
  });

  it('e-mails what must not be missed, as the user chose, with a signed unsubscribe link', async (context) => {
    if (!hasCognito()) context.skip();
    const user = await newUser(RUN);
    const prefs = await call<NotificationPreferences>(
      'GET',
      `/api/notifications/${user.id}/preferences`,
      { token: user.accessToken },
    );
    expect(prefs.json.data).toEqual({
      email: { orders: true, auctions: true, offerings: true, followed: false },
    });
    await emit(user.id, 'market_orderpaid', { eventKey: `${RUN}:paid` });
    await emit(user.id, 'market_orderpaid', { eventKey: `${RUN}:paid` });
    await emit(user.id, 'market_bidcreated'); // in-app only
    await emit(user.id, 'market_newoffering'); // followed: off by default
    const sent = await emailsTo(user.email);
    const notices = sent.filter((email) => email.subject?.includes('Blue Lagoon'));
    expect(notices).toHaveLength(1);
    const [email] = notices;
    expect(email?.text).toContain('/market/product/ITEM1');
    expect(email?.html).toContain('Blue Lagoon print');
    const link = /\/unsubscribe\?token=([^\s"&]+)/.exec(email?.text ?? '')?.[1];
    expect(link).toBeDefined();
    const token = decodeURIComponent(link ?? '');

    // A forged or altered token is refused and changes nothing; the real one works without a session.
    const [encodedUser, , signature] = token.split('.');
    for (const forged of [
      `${encodedUser}.auctions.${signature}`,
      `${encodedUser}.orders.${'A'.repeat(32)}`,
      'garbage',
    ]) {
      const refused = await call('POST', '/api/notifications/unsubscribe', {
        body: { token: forged },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe('notifications.errors.unsubscribe_invalid');
    }
    const done = await call<{ group: string }>('POST', '/api/notifications/unsubscribe', {
      body: { token },
    });
    expect(done.status).toBe(200);
    expect(done.json.data.group).toBe('orders');
    const after = await call<NotificationPreferences>(
      'GET',
      `/api/notifications/${user.id}/preferences`,
      { token: user.accessToken },
    );
    expect(after.json.data.email).toEqual({
      orders: false,
      auctions: true,
      offerings: true,
      followed: false,
    });
    await emit(user.id, 'market_orderpaid', { payload: { itemName: 'Second print' } });
    expect((await emailsTo(user.email)).some((m) => m.subject?.includes('Second print'))).toBe(
      false,
    );

    // Turning a group on through the settings call: followed sellers' offerings are e-mailed.
    const on = await call<NotificationPreferences>(
      'PUT',
      `/api/notifications/${user.id}/preferences`,
      { token: user.accessToken, body: { email: { followed: true } } },
    );
    expect(on.json.data.email.followed).toBe(true);
    await emit(user.id, 'market_newoffering', {
      payload: { itemName: 'Night Ferry', sourcenick: 'tidewater', itemmarket: 'ITEM2' },
    });
    expect(
      (await emailsTo(user.email)).some(
        (m) => m.subject === '@tidewater published a new offering: “Night Ferry”.',
      ),
    ).toBe(true);
    const bad = await call('PUT', `/api/notifications/${user.id}/preferences`, {
      token: user.accessToken,
      body: { email: { spam: true } },
    });
    expect(bad.status).toBe(400);
  });
});
