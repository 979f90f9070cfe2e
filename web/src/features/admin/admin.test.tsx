import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PendingOffering } from '@shared/schemas/offerings';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import { OFFERING_IDS, pendingOfferingFixture } from '../../test/offeringFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown, status = 200) => jsonResponse({ data }, status);
const fail = (code: string, status: number) =>
  jsonResponse({ error: { code, message: code, requestId: 't' } }, status);

const PAGE = '/admin/offerings';
const QUEUE = '/api/admin/offerings';
const validatePath = (id: string) => `/api/admin/offerings/${id}/validate`;

type Handlers = Parameters<typeof mockApi>[0];

const mug = pendingOfferingFixture();
const vase = pendingOfferingFixture({
  id: OFFERING_IDS.auction,
  type: 'auction',
  price: 4000,
  payment_mode: 'deposit',
  deposit: 500,
  notes: '',
  terms: 'None',
  seller: { id: 'user-5', nick: 'bruno' },
  submitted_at: '2026-02-02T09:00:00.000Z',
  item: { ...mug.item, id: 'item-2', title: 'Blue vase', legal_terms: 'None' },
});

function signedIn(admin: boolean, extra: Handlers = {}) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    '/api/session': () => ok({ userId: 'user-1', email: 'ana@example.com', admin }),
    ...extra,
  });
}

/** The queue answering `pages` by cursor (first page without one). */
function queue(pages: Record<string, { items: PendingOffering[]; nextCursor: string | null }>) {
  return (url: URL) => ok(pages[url.searchParams.get('cursor') ?? ''] ?? pages['']);
}

const row = (title: string) => screen.findByRole('article', { name: title });
const callsTo = (fetchMock: ReturnType<typeof mockApi>, part: string) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes(part));

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

describe('admin offerings: who may see it', () => {
  it('shows a guest the 404 page', async () => {
    const fetchMock = mockApi({ '/api/config': () => ok(configFixture()) });
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(callsTo(fetchMock, QUEUE)).toHaveLength(0);
  });

  it('shows a signed-in user who is not an admin the 404 page, asking nothing of the queue', async () => {
    const fetchMock = signedIn(false, {
      [QUEUE]: queue({ '': { items: [mug], nextCursor: null } }),
    });
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(callsTo(fetchMock, '/api/session')).toHaveLength(1);
    expect(callsTo(fetchMock, QUEUE)).toHaveLength(0);
    expect(screen.queryByText('Offerings to validate')).toBeNull();
  });

  it('shows the 404 page when the session call is refused', async () => {
    signedIn(false, { '/api/session': () => fail('forbidden', 403) });
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});

describe('admin offerings: the queue', () => {
  it('lists what support judges, oldest first, and loads more', async () => {
    const third = pendingOfferingFixture({
      id: OFFERING_IDS.other,
      item: { ...mug.item, title: 'Green bowl' },
    });
    signedIn(true, {
      [QUEUE]: queue({
        '': { items: [mug, vase], nextCursor: 'c1' },
        c1: { items: [third], nextCursor: null },
      }),
    });
    renderRoute(PAGE);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Offerings to validate' }),
    ).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Offerings waiting for validation' });
    const titles = within(list)
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual(['Stoneware mug', 'Blue vase']);

    const first = await row('Stoneware mug');
    expect(within(first).getByText('Hand-thrown, 300 ml.')).toBeTruthy();
    expect(within(first).getByRole('link', { name: '@lumen' }).getAttribute('href')).toBe('/lumen');
    expect(within(first).getByText('$12,50')).toBeTruthy();
    expect(within(first).getByText('Made in Spain.')).toBeTruthy();
    expect(within(first).getByText('Returns within 14 days.')).toBeTruthy();
    expect(within(first).getByText('Ships within two days.')).toBeTruthy();
    expect(within(first).getByText('Art')).toBeTruthy();
    expect(within(first).getByText('5 of 10')).toBeTruthy();
    expect(within(first).getByText(/Submitted \d\d\/02\/2026 \d\d:\d\d/)).toBeTruthy();
    const images = within(first).getByRole('list', { name: 'Images of Stoneware mug' });
    expect(within(images).getAllByRole('img')).toHaveLength(2);

    const second = await row('Blue vase');
    expect(within(second).getByText('Minimum bid')).toBeTruthy();
    expect(within(second).getByText('$40,00')).toBeTruthy();
    expect(within(second).getByText('Deposit of $5,00 per copy')).toBeTruthy();
    expect(within(second).getByText('No notes')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await row('Green bowl')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when nothing waits for validation', async () => {
    signedIn(true, { [QUEUE]: queue({ '': { items: [], nextCursor: null } }) });
    renderRoute(PAGE);
    expect(await screen.findByText('No offerings waiting for validation')).toBeTruthy();
  });

  it('approves: the row leaves at once and the decision is sent', async () => {
    const answer = deferred<Response>();
    const bodies: unknown[] = [];
    signedIn(true, {
      [QUEUE]: queue({ '': { items: [mug, vase], nextCursor: null } }),
      [validatePath(mug.id)]: (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return answer.promise;
      },
    });
    renderRoute(PAGE);
    const first = await row('Stoneware mug');
    await userEvent.click(within(first).getByRole('button', { name: 'Approve Stoneware mug' }));
    // Optimistic: gone before the answer.
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Stoneware mug' })).toBeNull(),
    );
    expect(bodies).toEqual([{ decision: 'approve' }]);
    answer.resolve(ok(pendingOfferingFixture({ status: 'validated' })));
    expect(await screen.findByText('“Stoneware mug” was approved and published.')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Blue vase' })).toBeTruthy();
  });

  it('puts the row back with the reason when the decision fails', async () => {
    signedIn(true, {
      [QUEUE]: queue({ '': { items: [mug], nextCursor: null } }),
      [validatePath(mug.id)]: () => fail('unavailable', 503),
    });
    renderRoute(PAGE);
    const first = await row('Stoneware mug');
    await userEvent.click(within(first).getByRole('button', { name: 'Approve Stoneware mug' }));
    const back = await row('Stoneware mug');
    expect(await within(back).findByText(/“Stoneware mug” is back in the queue: /)).toBeTruthy();
  });

  it('rejects only with a reason, and sends it', async () => {
    const bodies: unknown[] = [];
    signedIn(true, {
      [QUEUE]: queue({ '': { items: [mug], nextCursor: null } }),
      [validatePath(mug.id)]: (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return ok(pendingOfferingFixture({ status: 'not_validated' }));
      },
    });
    renderRoute(PAGE);
    const first = await row('Stoneware mug');
    await userEvent.click(within(first).getByRole('button', { name: 'Reject Stoneware mug' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject “Stoneware mug”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject offering' }));
    expect(within(dialog).getByText('Give the seller a reason.')).toBeTruthy();
    expect(bodies).toEqual([]);
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /Reason/ }),
      '  The photos do not show the item.  ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject offering' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Stoneware mug' })).toBeNull(),
    );
    expect(bodies).toEqual([{ decision: 'reject', reason: 'The photos do not show the item.' }]);
    expect(await screen.findByText('“Stoneware mug” was rejected.')).toBeTruthy();
    expect(await screen.findByText('No offerings waiting for validation')).toBeTruthy();
  });

  it('takes the row off and says so when someone else decided first', async () => {
    signedIn(true, {
      [QUEUE]: queue({ '': { items: [mug, vase], nextCursor: null } }),
      [validatePath(mug.id)]: () => fail('market.offering.errors.not_pending', 409),
    });
    renderRoute(PAGE);
    const first = await row('Stoneware mug');
    await userEvent.click(within(first).getByRole('button', { name: 'Approve Stoneware mug' }));
    expect(
      await screen.findByText(
        'Someone else already decided on “Stoneware mug”: it has left the queue.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Stoneware mug' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Blue vase' })).toBeTruthy();
  });
});
