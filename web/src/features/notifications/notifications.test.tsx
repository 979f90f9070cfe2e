import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Notification, UnreadCounters } from '@shared/schemas/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { AuthContext } from '../../lib/auth';
import { becomeMinterModal } from '../../lib/becomeMinterStore';
import { setTitleUnreadCount } from '../../lib/head';
import { toasts } from '../../lib/toast';
import { authStateFixture, configWithAuthFixture, userFixture } from '../../test/fixtures';
import {
  countersFixture,
  FakeIntersectionObserver,
  notificationFixture,
} from '../../test/notificationFixtures';
import { FakeSocket, failure, ok } from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import {
  createTestQueryClient,
  deferred,
  mockApi,
  renderInRouter,
  renderRoute,
} from '../../test/utils';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';
import { NotificationsBell } from './components/NotificationsBell';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const USER = '/api/users/user-1';
const BASE = '/api/notifications/user-1';
const CALLS = {
  list: BASE,
  unread: `${BASE}/unread`,
  markAll: `${BASE}/sidebarmarkallread`,
  one: (id: string) => `${BASE}/${id}`,
};

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
  FakeSocket.all = [];
  FakeIntersectionObserver.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
});

afterEach(() => {
  vi.useRealTimers();
  setTitleUnreadCount(0);
});

type Handlers = Parameters<typeof mockApi>[0];
type Page = { notifications: Notification[]; nextCursor: string | null };

interface Setup {
  counters?: UnreadCounters;
  /** The list's pages by cursor ('' for the first). */
  pages?: Record<string, Page>;
  handlers?: Handlers;
  path?: string;
}

/** A signed-in user on `path`, with the notifications calls answered from `pages`. */
function renderAsUser({
  counters = countersFixture(0),
  pages = { '': { notifications: [], nextCursor: null } },
  handlers = {},
  path = '/legal/terms',
}: Setup = {}) {
  const state = { counters };
  const fetchMock = mockApi({
    '/api/config': () => ok({ ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' }),
    [`${USER}/user-profile`]: () => ok(ownProfileFixture()),
    [`${USER}/addresses`]: () => ok({ items: [] }),
    [`${USER}/get-user-limits`]: () =>
      ok({
        limitCapacity: 100 * 1024 * 1024,
        overlay: 0,
        firestore: 0,
        mints: { used: 0, limit: 5 },
        reached: false,
      }),
    [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }),
    [CALLS.unread]: () => ok(state.counters),
    [CALLS.list]: (url) => {
      const page = pages[url.searchParams.get('cursor') ?? ''];
      return page ? ok(page) : failure('forms.validation.cursor', 400);
    },
    ...handlers,
  });
  return { fetchMock, state, ...renderRoute(path) };
}

function callsTo(fetchMock: ReturnType<typeof mockApi>, path: string, method = 'GET') {
  return fetchMock.mock.calls.filter(
    ([input, init]) =>
      new URL(String(input), 'http://localhost').pathname === path &&
      (init?.method ?? 'GET') === method,
  );
}

/** The top bar's bell, once its module has loaded (its name carries the count). */
async function bell(name: string | RegExp = /^Notifications/) {
  const [top] = screen.getAllByRole('banner');
  if (!top) throw new Error('no top bar');
  return within(top).findByRole('button', { name });
}

async function openDialog() {
  await userEvent.click(await bell());
  return screen.findByRole('dialog', { name: 'Notifications' });
}

/** A notification's row (a button named by its text). */
async function row(dialog: HTMLElement, text: RegExp) {
  return within(dialog).findByRole('button', { name: text });
}

function rowItem(rowButton: HTMLElement): HTMLElement {
  const item = rowButton.closest('li');
  if (!item) throw new Error('no list item');
  return item;
}

function bodyOf(call: unknown[] | undefined): unknown {
  const init = call?.[1] as RequestInit | undefined;
  return init?.body ? JSON.parse(String(init.body)) : undefined;
}

const bid = notificationFixture({
  id: 'n-1',
  activity: 'market_bidcreated',
  payload: {
    itemName: 'Blue Vase',
    sourcenick: 'lumen',
    itemmarket: 'item-1',
    amount: { amount: 12_000, currency: 'USD' },
  },
});
const outbid = notificationFixture({
  id: 'n-2',
  activity: 'market_outbid',
  read: true,
  payload: { itemName: 'Green Bowl', itemmarket: 'item-2' },
  itemmarket: 'item-2',
});

/**
 * One unread bid notification, its dialog open and "Mark as read" clicked; the mark's answer is
 * held until the test gives it (`answer`).
 */
async function markHeld(counters: UnreadCounters) {
  const answer = deferred<Response>();
  const setup = renderAsUser({
    counters,
    pages: { '': { notifications: [bid], nextCursor: null } },
    handlers: { [CALLS.one('n-1')]: () => answer.promise },
  });
  const button = await bell('Notifications, 1 unread');
  await userEvent.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
  const target = await row(dialog, /Blue Vase/);
  await userEvent.click(within(rowItem(target)).getByRole('button', { name: 'Mark as read' }));
  return { ...setup, answer, button, target };
}

/** A second unread bid notification, and the same once read. */
function bidFixtureRead(id: string, itemName: string) {
  const unread = notificationFixture({
    id,
    activity: 'market_bidcreated',
    payload: { itemName, sourcenick: 'lumen', itemmarket: 'item-3' },
  });
  return { unread, read: { ...unread, read: true } };
}

describe('the bell', () => {
  it('shows the unread count, 99+ above 99, in its name and in the tab title', async () => {
    renderAsUser({ counters: countersFixture(120) });
    const button = await bell('Notifications, 120 unread');
    expect(within(button).getByText('99+')).toBeTruthy();
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    await waitFor(() => expect(document.title).toMatch(/^\(99\+\) /));
  });

  it('shows no badge and no title count without unread notifications', async () => {
    renderAsUser({ counters: countersFixture(0) });
    const button = await bell('Notifications');
    await waitFor(() => expect(button.querySelector('.MuiBadge-invisible')).not.toBeNull());
    expect(document.title).not.toMatch(/^\(/);
  });

  it('counts 3 in the title of the page, which keeps its own title', async () => {
    renderAsUser({ counters: countersFixture(3) });
    await bell('Notifications, 3 unread');
    await waitFor(() => expect(document.title).toBe('(3) Legal Terms · MintMarket'));
  });

  it('rings for 10 s on notification.created, sets its counters and refetches the count', async () => {
    const { fetchMock, state } = renderAsUser({ counters: countersFixture(1) });
    const button = await bell('Notifications, 1 unread');
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    expect(button.getAttribute('data-ringing')).toBe('false');
    const before = callsTo(fetchMock, CALLS.unread).length;

    vi.useFakeTimers({ shouldAdvanceTime: true });
    state.counters = countersFixture(2);
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.created',
        id: 'm-1',
        notificationId: 'n-9',
        counters: countersFixture(2),
      }),
    );
    expect(button.getAttribute('data-ringing')).toBe('true');
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    await waitFor(() => expect(callsTo(fetchMock, CALLS.unread).length).toBe(before + 1));

    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(button.getAttribute('data-ringing')).toBe('true');
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(button.getAttribute('data-ringing')).toBe('false');
  });

  it('keeps the newer count when the count fetched on arrival answers after a live event', async () => {
    // The page loads while another tab marks all read: the count is read before (3, version 4),
    // the other tab's event (0, version 5) arrives first.
    const held = deferred<Response>();
    renderAsUser({ handlers: { [CALLS.unread]: () => held.promise } });
    const button = await bell();
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.updated',
        id: 'm-5',
        counters: countersFixture(0, {}, 5),
      }),
    );
    held.resolve(ok(countersFixture(3, {}, 4)));
    await act(() => held.promise.then(() => new Promise((resolve) => setTimeout(resolve, 50))));
    expect(button.getAttribute('aria-label')).toBe('Notifications');
    expect(document.title).not.toMatch(/^\(/);
  });

  it('fetches the count again once the socket opens: a notification sent before it is counted', async () => {
    const { fetchMock, state } = renderAsUser({ counters: countersFixture(0, {}, 2) });
    const button = await bell('Notifications');
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    const before = callsTo(fetchMock, CALLS.unread).length;
    // Two notifications came between the count's answer and the socket's opening: no event.
    state.counters = countersFixture(2, {}, 4);
    act(() => FakeSocket.all[0]?.onopen?.());
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    expect(callsTo(fetchMock, CALLS.unread).length).toBe(before + 1);
  });

  it('keeps the newer count when two live events arrive in the other order', async () => {
    const { fetchMock, state } = renderAsUser({ counters: countersFixture(1, {}, 7) });
    const button = await bell('Notifications, 1 unread');
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    const before = callsTo(fetchMock, CALLS.unread).length;
    // Another tab read the unread one (version 8), then a notification came (version 9); the
    // read's event is delivered last.
    state.counters = countersFixture(1, {}, 9);
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.created',
        id: 'm-9',
        notificationId: 'n-9',
        counters: countersFixture(1, {}, 9),
      }),
    );
    await waitFor(() => expect(callsTo(fetchMock, CALLS.unread).length).toBe(before + 1));
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.updated',
        id: 'm-8',
        counters: countersFixture(0, {}, 8),
      }),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread');
  });

  it('takes the counters of notification.updated (another tab read some)', async () => {
    renderAsUser({ counters: countersFixture(4) });
    const button = await bell('Notifications, 4 unread');
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.updated',
        id: 'm-2',
        counters: countersFixture(1),
      }),
    );
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    expect(button.getAttribute('data-ringing')).toBe('false');
  });

  it('fetches the counters again after the live channel reconnects', async () => {
    const { fetchMock, state } = renderAsUser({ counters: countersFixture(1) });
    const button = await bell('Notifications, 1 unread');
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    const first = FakeSocket.all[0];
    const loaded = callsTo(fetchMock, CALLS.unread).length;
    act(() => first?.onopen?.());
    // The first opening reads the count once more (a notification may have come before it).
    await waitFor(() => expect(callsTo(fetchMock, CALLS.unread).length).toBe(loaded + 1));
    const before = callsTo(fetchMock, CALLS.unread).length;
    // Offline for a while: a notification was created meanwhile.
    state.counters = countersFixture(5);
    act(() => first?.onclose?.());
    await waitFor(() => expect(FakeSocket.all.length).toBe(2), { timeout: 3_000 });
    act(() => FakeSocket.all[1]?.onopen?.());
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 5 unread'));
    expect(callsTo(fetchMock, CALLS.unread).length).toBe(before + 1);
  });

  it('shares one socket with the other live listeners of the tab', async () => {
    renderAsUser({ path: '/account/settings/paymentmethod' });
    await bell();
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeSocket.all.filter((socket) => socket.readyState !== 3)).toHaveLength(1);
  });

  it('is not there for a guest, who calls nothing of the notifications', async () => {
    window.localStorage.clear();
    amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
    const { fetchMock } = renderAsUser();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/notifications'))).toBe(
      false,
    );
  });
});

describe('the notifications dialog', () => {
  it('is a dialog named Notifications; 8 skeleton rows while loading; focus back to the bell', async () => {
    const page = deferred<Response>();
    renderAsUser({ handlers: { [CALLS.list]: () => page.promise } });
    const button = await bell();
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const loading = within(dialog).getByRole('status', { name: 'Loading notifications' });
    expect(loading.querySelectorAll('[data-skeleton-row]')).toHaveLength(8);
    expect(within(dialog).queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    page.resolve(ok({ notifications: [bid], nextCursor: null }));
    expect(await row(dialog, /Blue Vase/)).toBeTruthy();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it('shows the empty state, without Mark all as read', async () => {
    renderAsUser();
    const dialog = await openDialog();
    expect(await within(dialog).findByText('No notifications yet')).toBeTruthy();
    expect(dialog.querySelector('svg[aria-hidden]')).not.toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('shows each notification: its text, amount, date and unread mark', async () => {
    renderAsUser({
      counters: countersFixture(1),
      pages: { '': { notifications: [bid, outbid], nextCursor: null } },
    });
    const dialog = await openDialog();
    const unread = await row(dialog, /@lumen placed a bid on Blue Vase\./);
    expect(unread.textContent).toMatch(/^Unread: /);
    expect(unread.textContent).toContain('$120,00 · Today ');
    expect(unread.getAttribute('data-read')).toBe('false');
    const read = await row(dialog, /You were outbid on Green Bowl\./);
    expect(read.textContent).not.toMatch(/Unread/);
    expect(read.getAttribute('data-read')).toBe('true');
    // Images: the item's; else the section's icon.
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(2);
  });

  it('marks an item read when the mouse hovers it (one PUT), with the count', async () => {
    const { fetchMock } = renderAsUser({
      counters: countersFixture(1),
      pages: { '': { notifications: [bid, outbid], nextCursor: null } },
      handlers: {
        [CALLS.one('n-1')]: () =>
          ok({ notification: { ...bid, read: true }, counters: countersFixture(0) }),
      },
    });
    const button = await bell('Notifications, 1 unread');
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const target = await row(dialog, /Blue Vase/);
    await userEvent.hover(target);
    await userEvent.unhover(target);
    await userEvent.hover(target);
    await waitFor(() => expect(target.getAttribute('data-read')).toBe('true'));
    expect(button.getAttribute('aria-label')).toBe('Notifications');
    await waitFor(() => expect(callsTo(fetchMock, CALLS.one('n-1'), 'PUT')).toHaveLength(1));
    expect(bodyOf(callsTo(fetchMock, CALLS.one('n-1'), 'PUT')[0])).toEqual({
      read: true,
      activity: 'market_bidcreated',
      mode: 'sidebar',
    });
    // Hovering a read item sends nothing.
    await userEvent.hover(await row(dialog, /Green Bowl/));
    expect(callsTo(fetchMock, CALLS.one('n-2'), 'PUT')).toHaveLength(0);
  });

  it('marks an item read when a finger swipes it sideways, not on a short move', async () => {
    const { fetchMock } = renderAsUser({
      counters: countersFixture(1),
      pages: { '': { notifications: [bid], nextCursor: null } },
      handlers: {
        [CALLS.one('n-1')]: () =>
          ok({ notification: { ...bid, read: true }, counters: countersFixture(0) }),
      },
    });
    const dialog = await openDialog();
    const target = await row(dialog, /Blue Vase/);
    const touch = { pointerType: 'touch', pointerId: 7 };
    fireEvent.pointerDown(target, { ...touch, clientX: 200, clientY: 20 });
    fireEvent.pointerMove(target, { ...touch, clientX: 180, clientY: 22 });
    expect(target.getAttribute('data-read')).toBe('false');
    fireEvent.pointerMove(target, { ...touch, clientX: 150, clientY: 24 });
    fireEvent.pointerMove(target, { ...touch, clientX: 120, clientY: 24 });
    fireEvent.pointerUp(target, { ...touch, clientX: 120, clientY: 24 });
    // The click a swipe ends with does not open the item.
    fireEvent.click(target);
    await waitFor(() => expect(target.getAttribute('data-read')).toBe('true'));
    expect(screen.getByRole('dialog', { name: 'Notifications' })).toBeTruthy();
    await waitFor(() => expect(callsTo(fetchMock, CALLS.one('n-1'), 'PUT')).toHaveLength(1));
    // A swipe to the right works too (on an item already read: nothing to send).
    fireEvent.pointerDown(target, { ...touch, clientX: 100, clientY: 20 });
    fireEvent.pointerMove(target, { ...touch, clientX: 160, clientY: 20 });
    fireEvent.pointerUp(target, { ...touch, clientX: 160, clientY: 20 });
    expect(callsTo(fetchMock, CALLS.one('n-1'), 'PUT')).toHaveLength(1);
  });

  it('sets an item back to unread from its button', async () => {
    const { fetchMock } = renderAsUser({
      counters: countersFixture(0),
      pages: { '': { notifications: [outbid], nextCursor: null } },
      handlers: {
        [CALLS.one('n-2')]: () =>
          ok({ notification: { ...outbid, read: false }, counters: countersFixture(1) }),
      },
    });
    const button = await bell('Notifications');
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const target = await row(dialog, /Green Bowl/);
    await userEvent.click(within(rowItem(target)).getByRole('button', { name: 'Mark as unread' }));
    await waitFor(() => expect(target.getAttribute('data-read')).toBe('false'));
    expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread');
    expect(bodyOf(callsTo(fetchMock, CALLS.one('n-2'), 'PUT')[0])).toEqual({
      read: false,
      activity: 'market_outbid',
      mode: 'sidebar',
    });
    expect(within(rowItem(target)).getByRole('button', { name: 'Mark as read' })).toBeTruthy();
  });

  it('reads the counters again when two marks crossed on their way (the server may apply them in either order)', async () => {
    const first = deferred<Response>();
    const second = bidFixtureRead('n-3', 'Red Jug');
    const { fetchMock, state } = renderAsUser({
      counters: countersFixture(2),
      pages: { '': { notifications: [bid, second.unread], nextCursor: null } },
      handlers: {
        [CALLS.one('n-1')]: () => first.promise,
        // The server applied the second mark first: its answer still counts the first as unread.
        [CALLS.one('n-3')]: () => ok({ notification: second.read, counters: countersFixture(1) }),
      },
    });
    const button = await bell('Notifications, 2 unread');
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const blue = await row(dialog, /Blue Vase/);
    await userEvent.click(within(rowItem(blue)).getByRole('button', { name: 'Mark as read' }));
    const red = await row(dialog, /Red Jug/);
    await userEvent.click(within(rowItem(red)).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(callsTo(fetchMock, CALLS.one('n-3'), 'PUT')).toHaveLength(1));
    const reads = callsTo(fetchMock, CALLS.unread).length;
    // Both are read now on the server; the first answer comes last.
    state.counters = countersFixture(0);
    first.resolve(ok({ notification: { ...bid, read: true }, counters: countersFixture(0) }));
    await waitFor(() => expect(callsTo(fetchMock, CALLS.unread).length).toBeGreaterThan(reads));
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications'));
  });

  it('keeps a notification that came while a mark was on its way, whose answer comes after it', async () => {
    const { state, answer, button, target } = await markHeld(countersFixture(1, {}, 3));
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications'));
    // The server read it (version 4), then a notification came (version 5), whose event arrives
    // before the mark's answer.
    state.counters = countersFixture(1, {}, 5);
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.created',
        id: 'm-5',
        notificationId: 'n-5',
        counters: countersFixture(1, {}, 5),
      }),
    );
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    answer.resolve(
      ok({ notification: { ...bid, read: true }, counters: countersFixture(0, {}, 4) }),
    );
    await waitFor(() => expect(target.getAttribute('data-read')).toBe('true'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread');
  });

  it('undoes a mark that failed, and says so', async () => {
    const { answer, button, target } = await markHeld(countersFixture(1));
    // At once, before the answer.
    await waitFor(() => expect(target.getAttribute('data-read')).toBe('true'));
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications'));
    answer.resolve(failure('unavailable', 503));
    await waitFor(() => expect(target.getAttribute('data-read')).toBe('false'));
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    expect(toasts.getQueue().map((toast) => toast.severity)).toEqual(['error']);
  });

  it('marks all as read', async () => {
    const { fetchMock } = renderAsUser({
      counters: countersFixture(2),
      pages: {
        '': {
          notifications: [bid, { ...outbid, read: false }],
          nextCursor: null,
        },
      },
      handlers: { [CALLS.markAll]: () => ok(countersFixture(0)) },
    });
    const button = await bell('Notifications, 2 unread');
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    await row(dialog, /Blue Vase/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(dialog.querySelectorAll('[data-read="false"]')).toHaveLength(0));
    expect(button.getAttribute('aria-label')).toBe('Notifications');
    expect(callsTo(fetchMock, CALLS.markAll, 'POST')).toHaveLength(1);
    await waitFor(() =>
      expect(
        within(dialog).getByRole('button', { name: 'Mark all as read' }).hasAttribute('disabled'),
      ).toBe(true),
    );
  });

  it('loads the next page when the end of the list scrolls into view', async () => {
    const first = Array.from({ length: 10 }, (_, index) =>
      notificationFixture({
        id: `p1-${index}`,
        read: true,
        payload: { itemName: `First ${index}`, itemmarket: 'item-1' },
      }),
    );
    const second = [
      notificationFixture({
        id: 'p2-0',
        read: true,
        payload: { itemName: 'Older one', itemmarket: 'item-1' },
      }),
    ];
    const { fetchMock } = renderAsUser({
      pages: {
        '': { notifications: first, nextCursor: 'c1' },
        c1: { notifications: second, nextCursor: null },
      },
    });
    const dialog = await openDialog();
    await row(dialog, /First 9/);
    expect(within(dialog).queryByRole('button', { name: /Older one/ })).toBeNull();
    await waitFor(() => expect(FakeIntersectionObserver.all.length).toBeGreaterThan(0));
    const observer = FakeIntersectionObserver.all.at(-1);
    expect(observer?.options.root).toBe(dialog.querySelector('[data-notifications-scroll]'));
    act(() => FakeIntersectionObserver.reveal());
    expect(await row(dialog, /Older one/)).toBeTruthy();
    const listCalls = callsTo(fetchMock, CALLS.list);
    expect(
      new URL(String(listCalls.at(-1)?.[0]), 'http://localhost').searchParams.get('cursor'),
    ).toBe('c1');
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(11);
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    let fail = true;
    renderAsUser({
      handlers: {
        [CALLS.list]: () =>
          fail ? failure('unavailable', 503) : ok({ notifications: [bid], nextCursor: null }),
      },
    });
    const dialog = await openDialog();
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 8_000 });
    expect(within(alert).getByText('Notifications could not be loaded')).toBeTruthy();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: /Retry|Try again/ }));
    expect(await row(dialog, /Blue Vase/)).toBeTruthy();
  });

  it('refetches the open list when a notification is created', async () => {
    const pages = { '': { notifications: [bid], nextCursor: null } as Page };
    renderAsUser({ counters: countersFixture(1), pages });
    const dialog = await openDialog();
    await row(dialog, /Blue Vase/);
    await waitFor(() => expect(FakeSocket.all.length).toBe(1));
    pages[''] = {
      notifications: [
        notificationFixture({
          id: 'n-3',
          activity: 'market_auction_win',
          payload: { itemName: 'Red Jug' },
        }),
        bid,
      ],
      nextCursor: null,
    };
    act(() =>
      FakeSocket.broadcast({
        type: 'notification.created',
        id: 'm-3',
        notificationId: 'n-3',
        counters: countersFixture(2),
      }),
    );
    expect(await row(dialog, /You won the auction for Red Jug/)).toBeTruthy();
  });
});

describe('opening a notification', () => {
  const cases: Array<[string, Notification, string]> = [
    [
      'a market item',
      notificationFixture({ id: 'n-m', activity: 'market_orderpaid' }),
      '/market/product/item-1',
    ],
    [
      'a market transfer, on its available copies',
      notificationFixture({ id: 'n-t', activity: 'market_transfer' }),
      '/market/product/item-1?type=available',
    ],
    [
      'an asset transfer, on its available copies',
      notificationFixture({ id: 'n-a', activity: 'asset_transfer' }),
      '/market/product/item-1?type=available',
    ],
    [
      'an order update with its item',
      notificationFixture({ id: 'n-o', activity: 'update_order' }),
      '/market/product/item-1',
    ],
    [
      'a paid order: its order page',
      notificationFixture({
        id: 'n-p',
        activity: 'market_orderpaid',
        payload: { itemName: 'Lamp', orderId: 'oR01J0000000000000000000000' },
      }),
      '/account/orders/oR01J0000000000000000000000',
    ],
    [
      'an order update without an item: the wallet',
      notificationFixture({
        id: 'n-w',
        activity: 'update_order',
        itemmarket: null,
        payload: { itemName: 'Lamp' },
      }),
      '/account/wallet/mytokens',
    ],
  ];

  it.each(cases)('%s', async (_name, notification, expected) => {
    const { router, fetchMock } = renderAsUser({
      counters: countersFixture(1),
      pages: { '': { notifications: [notification], nextCursor: null } },
      handlers: {
        [CALLS.one(notification.id)]: () =>
          ok({ notification: { ...notification, read: true }, counters: countersFixture(0) }),
      },
    });
    const dialog = await openDialog();
    const target = await within(dialog).findByRole('button', { name: /^Unread: / });
    await userEvent.click(target);
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(expected),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());
    await waitFor(() =>
      expect(callsTo(fetchMock, CALLS.one(notification.id), 'PUT')).toHaveLength(1),
    );
  });

  it('a seller-account one opens the become-minter modal', async () => {
    const minter = notificationFixture({
      id: 'n-s',
      activity: 'minter_completed',
      itemmarket: null,
      payload: { status: 'complete' },
    });
    const { router } = renderAsUser({
      counters: countersFixture(1, { minter: 1, market: 0 }),
      pages: { '': { notifications: [minter], nextCursor: null } },
      handlers: {
        [CALLS.one('n-s')]: () =>
          ok({ notification: { ...minter, read: true }, counters: countersFixture(0) }),
      },
    });
    const dialog = await openDialog();
    await userEvent.click(await row(dialog, /Your seller account is active/));
    await waitFor(() => expect(becomeMinterModal.current()).not.toBeNull());
    expect(router.state.location.pathname).toBe('/legal/terms');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());
  });

  it('on the page it leads to, refreshes that page instead of navigating', async () => {
    const order = notificationFixture({
      id: 'n-w',
      activity: 'update_order',
      itemmarket: null,
      read: true,
      payload: { itemName: 'Lamp' },
    });
    const { router, fetchMock } = renderAsUser({
      path: '/account/wallet/mytokens',
      pages: { '': { notifications: [order], nextCursor: null } },
    });
    const productCalls = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).includes('/token/getmyproducts'))
        .length;
    await screen.findByRole('tab', { name: 'My items' });
    await waitFor(() => expect(productCalls()).toBeGreaterThan(0));
    const before = productCalls();
    const dialog = await openDialog();
    await userEvent.click(await row(dialog, /Your order of Lamp was updated/));
    await waitFor(() => expect(productCalls()).toBeGreaterThan(before));
    expect(router.state.location.pathname).toBe('/account/wallet/mytokens');
  });

  it('on a phone: the bell is in the bottom bar, and works the same', async () => {
    setViewportWidth(PHONE_WIDTH);
    const { router } = renderAsUser({
      counters: countersFixture(3),
      pages: { '': { notifications: [bid], nextCursor: null } },
      handlers: {
        [CALLS.one('n-1')]: () =>
          ok({ notification: { ...bid, read: true }, counters: countersFixture(2) }),
      },
    });
    const bar = await screen.findByRole('navigation', { name: 'Quick actions' });
    const button = await within(bar).findByRole('button', { name: 'Notifications, 3 unread' });
    expect(within(button).getByText('Notifications')).toBeTruthy();
    const [top] = screen.getAllByRole('banner');
    expect(within(top as HTMLElement).queryByRole('button', { name: /^Notifications/ })).toBeNull();
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    await userEvent.click(await row(dialog, /Blue Vase/));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market/product/item-1'));
  });

  it('a guest-flagged user has no bell', () => {
    // The session's user carries the flag (lib/auth.tsx); the bell component checks it.
    const fetchMock = mockApi({});
    const queryClient = createTestQueryClient();
    renderInRouter(
      '/',
      <AuthContext.Provider
        value={authStateFixture({ status: 'user', user: userFixture({ guest: true }) })}
      >
        <NotificationsBell variant="icon" />
      </AuthContext.Provider>,
      (inner) => <AppProviders queryClient={queryClient}>{inner}</AppProviders>,
    );
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
