import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MoneyOverview } from '@shared/schemas/orders';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import { disputeFixture, ORDER_IDS } from '../../test/orderFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';

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

const PAGE = '/admin/money';
const MONEY = '/api/admin/money';

type Handlers = Parameters<typeof mockApi>[0];

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

const callsTo = (fetchMock: ReturnType<typeof mockApi>, part: string) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes(part));

type DisputeRow = MoneyOverview['disputes'][number];

const EMPTY: MoneyOverview = { disputes: [], owed: [], findings: [] };

/**
 * Two open disputes, the later deadline first as sent (the page shows the soonest first); @bruno
 * owing after a refused reversal and a payout that kept some back; an account without a nick; two
 * findings.
 */
function overview(): MoneyOverview {
  return {
    disputes: [
      {
        order_id: ORDER_IDS.second,
        item_title: 'Blue vase',
        seller: { id: 'user-5', nick: 'bruno' },
        buyer: { id: 'user-7', nick: 'carla' },
        dispute: disputeFixture({
          id: 'dp_2',
          reason: 'product_not_received',
          amount: 4000,
          stripe_status: 'under_review',
          evidence_due_by: '2026-03-12T12:00:00.000Z',
        }),
      },
      {
        order_id: ORDER_IDS.first,
        item_title: 'Stoneware mug',
        seller: { id: 'user-2', nick: 'lumen' },
        buyer: { id: 'user-1', nick: 'ana' },
        dispute: disputeFixture(),
      },
    ],
    owed: [
      {
        user_id: 'user-5',
        nick: 'bruno',
        currency: 'USD',
        amount: 500,
        lines: [
          {
            ref: 'rev#oR1#seller#ch_1',
            order_id: ORDER_IDS.first,
            amount: 700,
            at: '2026-03-03T10:00:00.000Z',
            reason: 'balance_insufficient',
          },
          {
            ref: 'net#oR2#seller#ch_2',
            order_id: ORDER_IDS.second,
            amount: -200,
            at: '2026-03-04T10:00:00.000Z',
            reason: 'netted',
          },
          {
            ref: 'x#3',
            order_id: ORDER_IDS.third,
            amount: 0,
            at: '2026-03-05T10:00:00.000Z',
            reason: 'manual_adjustment',
          },
        ],
      },
      {
        user_id: 'user-9',
        nick: null,
        currency: 'EUR',
        amount: 150,
        lines: [
          {
            ref: 'unnet#oR3#creator#ch_3',
            order_id: ORDER_IDS.third,
            amount: 150,
            at: '2026-03-06T10:00:00.000Z',
            reason: 'netted_share_cancelled',
          },
        ],
      },
    ],
    findings: [
      {
        order_id: ORDER_IDS.third,
        ref: 'tr_123',
        code: 'payout_refused',
        detail: 'Stripe refused the transfer: insufficient funds',
        found_at: '2026-03-07T08:30:00.000Z',
      },
      {
        order_id: ORDER_IDS.first,
        ref: 're_9',
        code: 'refund_unrecorded',
        detail: 'A refund of 1250 is not on the order',
        found_at: '2026-03-07T08:31:00.000Z',
      },
    ],
  };
}

/** The cells of a table's body rows, as read. */
const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

const section = (name: string) => screen.findByRole('region', { name });

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

describe('admin money: who may see it', () => {
  it('shows a guest the 404 page, asking nothing of the API', async () => {
    const fetchMock = mockApi({ '/api/config': () => ok(configFixture()) });
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(callsTo(fetchMock, MONEY)).toHaveLength(0);
  });

  it('shows a signed-in user who is not an admin the 404 page', async () => {
    const fetchMock = signedIn(false, { [MONEY]: () => ok(overview()) });
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(callsTo(fetchMock, '/api/session')).toHaveLength(1);
    expect(callsTo(fetchMock, MONEY)).toHaveLength(0);
    expect(screen.queryByText('Open disputes')).toBeNull();
  });
});

describe('admin money: the page', () => {
  it('shows the open disputes (soonest deadline first), the accounts that owe, and the findings', async () => {
    signedIn(true, { [MONEY]: () => ok(overview()) });
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Money' })).toBeTruthy();
    expect(document.title).toBe('Money · MintMarket');
    const nav = screen.getByRole('navigation', { name: 'Support pages' });
    expect(within(nav).getByRole('link', { name: 'Money' }).getAttribute('aria-current')).toBe(
      'page',
    );

    const disputes = await section('Open disputes');
    const table = within(disputes).getByRole('table', { name: 'Open disputes' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Order', 'Seller', 'Buyer', 'Amount', 'Reason', 'Evidence due', 'Stripe status']);
    expect(cellsOf(table)).toEqual([
      [
        `Stoneware mug${ORDER_IDS.first}`,
        '@lumen',
        '@ana',
        '$12,50',
        'Reported as fraud',
        expect.stringMatching(/^10\/03\/2026 \d\d:\d\d/),
        'Needs a response',
      ],
      [
        `Blue vase${ORDER_IDS.second}`,
        '@bruno',
        '@carla',
        '$40,00',
        'Item not received',
        expect.stringMatching(/^12\/03\/2026 \d\d:\d\d/),
        'Under review',
      ],
    ]);
    // The item's title links to the order.
    expect(within(table).getByRole('link', { name: 'Stoneware mug' }).getAttribute('href')).toBe(
      `/account/orders/${ORDER_IDS.first}`,
    );
    expect(within(table).getByRole('link', { name: '@carla' }).getAttribute('href')).toBe('/carla');

    const owed = await section('Accounts that owe');
    const bruno = within(owed).getByRole('article', { name: '@bruno' });
    expect(within(bruno).getByRole('link', { name: '@bruno' }).getAttribute('href')).toBe('/bruno');
    expect(within(bruno).getByText('Owes $5,00')).toBeTruthy();
    const lines = within(bruno).getByRole('table', {
      name: 'How the debt of @bruno came and went',
    });
    expect(cellsOf(lines).map((row) => row.slice(0, 2))).toEqual([
      ['Reversal refused: balance too low', '$7,00'],
      ['Kept back from a payout', '-$2,00'],
      ['manual_adjustment', '$0,00'],
    ]);
    const nameless = within(owed).getByRole('article', { name: 'Account user-9' });
    expect(within(nameless).getByText('Owes €1,50')).toBeTruthy();
    expect(within(nameless).getByText('Kept-back share cancelled')).toBeTruthy();

    const findings = await section('Reconciliation findings');
    const found = within(findings).getByRole('table', { name: 'Reconciliation findings' });
    expect(
      within(found)
        .getByRole('link', { name: `Order ${ORDER_IDS.third}` })
        .getAttribute('href'),
    ).toBe(`/account/orders/${ORDER_IDS.third}`);
    expect(cellsOf(found)).toEqual([
      [
        ORDER_IDS.third,
        'tr_123',
        'Payout refused by Stripe',
        'Stripe refused the transfer: insufficient funds',
        expect.stringMatching(/^07\/03\/2026 \d\d:\d\d$/),
      ],
      [
        ORDER_IDS.first,
        're_9',
        'Refund not recorded on the order',
        'A refund of 1250 is not on the order',
        expect.stringMatching(/^07\/03\/2026 \d\d:\d\d$/),
      ],
    ]);
  });

  it('shows cards instead of tables on a phone', async () => {
    setViewportWidth(PHONE_WIDTH);
    signedIn(true, { [MONEY]: () => ok(overview()) });
    renderRoute(PAGE);
    const disputes = await section('Open disputes');
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(
      within(disputes).getByRole('list', { name: 'Open disputes' }),
    ).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = cards[0] as HTMLElement;
    expect(within(first).getByRole('link', { name: 'Stoneware mug' }).getAttribute('href')).toBe(
      `/account/orders/${ORDER_IDS.first}`,
    );
    expect(within(first).getByText('Evidence due').nextElementSibling?.textContent).toMatch(
      /^10\/03\/2026/,
    );
    expect(within(first).getByRole('link', { name: '@lumen' })).toBeTruthy();
    const findings = await section('Reconciliation findings');
    expect(within(findings).getAllByRole('listitem')).toHaveLength(2);
  });

  it('marks a deadline already past, and puts disputes without one last', async () => {
    const [later, sooner] = overview().disputes as [DisputeRow, DisputeRow];
    signedIn(true, {
      [MONEY]: () =>
        ok({
          ...EMPTY,
          disputes: [
            { ...later, dispute: { ...later.dispute, evidence_due_by: null } },
            {
              ...sooner,
              dispute: { ...sooner.dispute, evidence_due_by: '2020-01-01T12:00:00.000Z' },
            },
          ],
        }),
    });
    renderRoute(PAGE);
    const table = within(await section('Open disputes')).getByRole('table');
    expect(cellsOf(table).map((row) => [row[0], row[5]])).toEqual([
      [
        `Stoneware mug${ORDER_IDS.first}`,
        expect.stringMatching(/^01\/01\/2020 \d\d:\d\d \(overdue\)$/),
      ],
      [`Blue vase${ORDER_IDS.second}`, 'No deadline'],
    ]);
  });

  it('says when there is nothing to look at', async () => {
    signedIn(true, { [MONEY]: () => ok(EMPTY) });
    renderRoute(PAGE);
    expect(await screen.findByText('No open disputes')).toBeTruthy();
    expect(screen.getByText('No account owes anything')).toBeTruthy();
    expect(screen.getByText('Nothing to reconcile')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a skeleton while loading, then an error with a retry that loads the page', async () => {
    const first = deferred<Response>();
    let calls = 0;
    signedIn(true, {
      [MONEY]: () => {
        calls += 1;
        return calls === 1 ? first.promise : ok(overview());
      },
    });
    renderRoute(PAGE);
    expect(await screen.findByRole('status', { name: 'Loading the money overview' })).toBeTruthy();
    first.resolve(fail('unavailable', 503));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The money overview could not be loaded')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Open disputes' })).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await section('Open disputes')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(calls).toBe(2);
  });

  it('links the two support pages', async () => {
    signedIn(true, {
      [MONEY]: () => ok(EMPTY),
      '/api/admin/offerings': () => ok({ items: [], nextCursor: null }),
    });
    renderRoute(PAGE);
    const nav = await screen.findByRole('navigation', { name: 'Support pages' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Offerings to validate' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Offerings to validate' }),
    ).toBeTruthy();
    const back = screen.getByRole('navigation', { name: 'Support pages' });
    expect(within(back).getByRole('link', { name: 'Money' }).getAttribute('href')).toBe(PAGE);
  });
});
