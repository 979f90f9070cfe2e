import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order, WalletActivity } from '@shared/schemas/orders';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import {
  fail,
  ok,
  ORDER_CALLS,
  ORDER_IDS,
  orderFixture,
  paidOrderFixture,
  walletActivityFixture,
} from '../../test/orderFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { mockApi, renderRoute } from '../../test/utils';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

type Handlers = Parameters<typeof mockApi>[0];
type FetchMock = ReturnType<typeof mockApi>;

function setup(extra: Handlers = {}) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    ...extra,
  });
}

const callsTo = (fetchMock: FetchMock, path: string) =>
  fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );

/** An order sold by @ana of another item. */
const sale = (overrides: Partial<Order> = {}) =>
  paidOrderFixture({
    id: ORDER_IDS.second,
    role: 'seller',
    item: { ...orderFixture().item, id: 'item-2', title: 'Tea bowl' },
    lineItems: orderFixture().lineItems.map((line) => ({
      ...line,
      quantity: 2,
      nftuniqueids: ['bowl-1', 'bowl-2'],
    })),
    total: 5000,
    status: 'fulfilled',
    created_at: '2026-02-20T08:30:00.000Z',
    updated_at: '2026-02-21T08:30:00.000Z',
    ...overrides,
  });

/** The element at `index`, which must be there. */
function nth(elements: HTMLElement[], index: number): HTMLElement {
  const element = elements[index];
  if (element === undefined) throw new Error(`no element at ${index} of ${elements.length}`);
  return element;
}

/** n wallet lines, newest first. */
const lines = (count: number, from = 1): WalletActivity[] =>
  Array.from({ length: count }, (_, index) =>
    walletActivityFixture({ id: `wa-${from + index}`, description: `Line ${from + index}` }),
  );

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

describe('/account/activity', () => {
  it.each(['/account/activity', '/account/activity/transfers'])(
    'sends %s to the market activity',
    async (path) => {
      setup({ [ORDER_CALLS.market]: () => ok({ items: [], nextCursor: null }) });
      const { router } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/account/activity/market'));
      const tabs = await screen.findByRole('tablist', { name: 'Activity sections' });
      expect(within(tabs).getByRole('tab', { name: 'Market' }).getAttribute('aria-selected')).toBe(
        'true',
      );
    },
  );

  it('lists the orders bought and sold: date, item, role, copies, amount, status, the order', async () => {
    const fetchMock = setup({
      [ORDER_CALLS.market]: (url) =>
        url.searchParams.get('cursor') === 'c2'
          ? ok({
              items: [sale({ id: ORDER_IDS.third, item: { ...sale().item, title: 'Vase' } })],
              nextCursor: null,
            })
          : ok({ items: [paidOrderFixture(), sale()], nextCursor: 'c2' }),
    });
    renderRoute('/account/activity/market');
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Purchases and sales' });
    const items = within(list).getAllByRole('listitem');
    const [bought, sold] = [nth(items, 0), nth(items, 1)];
    expect(within(bought).getByText('Stoneware mug')).toBeTruthy();
    expect(within(bought).getByText('Bought')).toBeTruthy();
    expect(within(bought).getByText('1 copy')).toBeTruthy();
    expect(within(bought).getByText('$12,50')).toBeTruthy();
    expect(within(bought).getByText('Paid')).toBeTruthy();
    expect(
      within(bought).getByRole('link', { name: 'View order: Stoneware mug' }).getAttribute('href'),
    ).toBe(`/account/orders/${ORDER_IDS.first}`);
    expect(within(sold).getByText('Sold')).toBeTruthy();
    expect(within(sold).getByText('2 copies')).toBeTruthy();
    expect(within(sold).getByText('$50,00')).toBeTruthy();
    expect(within(sold).getByText('Completed')).toBeTruthy();
    expect(within(sold).getByText(/20\/02\/2026/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByRole('listitem', { name: 'Vase' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(callsTo(fetchMock, ORDER_CALLS.market)).toHaveLength(2);
  });

  it('has empty and error states', async () => {
    setup({ [ORDER_CALLS.market]: () => ok({ items: [], nextCursor: null }) });
    const empty = renderRoute('/account/activity/market');
    expect(await screen.findByText('No purchases or sales yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the market' })).toBeTruthy();
    empty.unmount();

    setup({ [ORDER_CALLS.market]: () => fail('unavailable', 503) });
    renderRoute('/account/activity/market');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(alert).getByText('Error get market transactions')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it("shows the seller's balance and the wallet activity with its columns", async () => {
    setup({
      [ORDER_CALLS.balance]: () =>
        ok({
          available: [{ amount: 1100, currency: 'usd' }],
          pending: [{ amount: 250, currency: 'eur' }],
        }),
      [ORDER_CALLS.activity]: () =>
        ok({
          items: [
            walletActivityFixture(),
            walletActivityFixture({
              id: 'wa-2',
              event: 'payout',
              type: 'sale',
              amount: 1100,
              amount_paid: 0,
              amount_received: 1100,
              app_commission: 0,
              total: 1100,
              receipt: null,
              tx_id: 'tr_1',
              description: 'Your share of Tea bowl',
            }),
          ],
          nextCursor: null,
        }),
    });
    renderRoute('/account/activity/wallet');
    const balance = await screen.findByRole('region', { name: 'Balance' });
    expect(await within(balance).findByText('$11,00')).toBeTruthy();
    expect(within(balance).getByText('€2,50')).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Wallet activity' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Date',
      'Event',
      'Type',
      'Amount',
      'Amount paid',
      'Amount received',
      'Receipt',
      'Tx id',
      'Description',
      'App commission',
      'Total',
    ]);
    const tableRows = within(table).getAllByRole('row');
    const [first, second] = [nth(tableRows, 1), nth(tableRows, 2)];
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '01/03/2026 10:01',
      'Payment',
      'Purchase',
      '$12,50',
      '$12,50',
      '$0,00',
      'Receipt',
      'pi_3Nabc',
      'Stoneware mug × 1 Order',
      '$0,25',
      '$12,50',
    ]);
    expect(within(first).getByRole('link', { name: 'Receipt' }).getAttribute('href')).toBe(
      'https://pay.stripe.test/receipts/1',
    );
    expect(within(first).getByRole('link', { name: 'Order' }).getAttribute('href')).toBe(
      `/account/orders/${ORDER_IDS.first}`,
    );
    expect(within(second).getByText('Payout')).toBeTruthy();
    expect(within(second).getByText('Sale')).toBeTruthy();
    expect(within(second).getByText('Your share of Tea bowl', { exact: false })).toBeTruthy();
  });

  it('pages the wallet activity 10, 25 or 50 at a time, reading more as needed', async () => {
    const fetchMock = setup({
      [ORDER_CALLS.balance]: () => fail('onboarding.errors.not_onboarded', 404),
      [ORDER_CALLS.activity]: (url) =>
        url.searchParams.get('cursor') === 'w2'
          ? ok({ items: lines(10, 21), nextCursor: null })
          : ok({ items: lines(20), nextCursor: 'w2' }),
    });
    renderRoute('/account/activity/wallet');
    expect(
      await screen.findByText('Your seller balance appears here once you become a seller.'),
    ).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Wallet activity' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of more than 20')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Line 11')).toBeTruthy();
    expect(screen.queryByText('Line 1')).toBeNull();

    await userEvent.selectOptions(screen.getByLabelText('Transactions per page'), '25');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(26));
    expect(callsTo(fetchMock, ORDER_CALLS.activity)).toHaveLength(2);
    expect(screen.getByText('1–25 of 30')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', true);

    await userEvent.selectOptions(screen.getByLabelText('Transactions per page'), '50');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(31));
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
  });

  it('stacks every wallet line as a card on a phone', async () => {
    setViewportWidth(PHONE_WIDTH);
    setup({
      [ORDER_CALLS.balance]: () => ok({ available: [], pending: [] }),
      [ORDER_CALLS.activity]: () => ok({ items: lines(2), nextCursor: null }),
    });
    renderRoute('/account/activity/wallet');
    const list = await screen.findByRole('list', { name: 'Wallet activity' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = nth(within(list).getAllByRole('listitem'), 0);
    expect(within(card).getByText('Amount received')).toBeTruthy();
    expect(within(card).getByText('App commission')).toBeTruthy();
    expect(within(card).getByText('Line 1', { exact: false })).toBeTruthy();
  });

  it('has the empty state of the wallet activity', async () => {
    setup({
      [ORDER_CALLS.balance]: () => ok({ available: [], pending: [] }),
      [ORDER_CALLS.activity]: () => ok({ items: [], nextCursor: null }),
    });
    renderRoute('/account/activity/wallet');
    expect(await screen.findByText('No wallet activity yet')).toBeTruthy();
    expect(screen.getAllByText('No balance yet')).toHaveLength(2);
  });

  it('is in the account menu', async () => {
    setup({ [ORDER_CALLS.market]: () => ok({ items: [], nextCursor: null }) });
    const { router } = renderRoute('/sellers');
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Activity' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/activity/market'));
  });
});

describe('/account/wallet/mytokenshistory', () => {
  it('lists the copies bought and sold, with serials, price, role and the order', async () => {
    setup({
      [ORDER_CALLS.market]: () =>
        ok({
          items: [orderFixture({ id: ORDER_IDS.third }), paidOrderFixture(), sale()],
          nextCursor: null,
        }),
    });
    renderRoute('/account/wallet/mytokenshistory');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet' })).toBeTruthy();
    const tabs = screen.getByRole('tablist', { name: 'Wallet sections' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['My items', 'My creations', 'History']);
    expect(within(tabs).getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const list = await screen.findByRole('list', { name: 'Copies bought and sold' });
    // The booked order (not paid) is not a copy held.
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const rows = [nth(items, 0), nth(items, 1)] as const;
    expect(within(rows[0]).getByText('Serials: mug-0004')).toBeTruthy();
    expect(within(rows[0]).getByText('Bought')).toBeTruthy();
    expect(within(rows[1]).getByText('Serials: bowl-1, bowl-2')).toBeTruthy();
    expect(within(rows[1]).getByText('Sold')).toBeTruthy();
    expect(within(rows[1]).getByText('$50,00')).toBeTruthy();
    expect(
      within(rows[1]).getByRole('link', { name: 'View order: Tea bowl' }).getAttribute('href'),
    ).toBe(`/account/orders/${ORDER_IDS.second}`);
    expect(within(rows[1]).getByRole('link', { name: 'Tea bowl' }).getAttribute('href')).toBe(
      '/market/product/item-2',
    );
  });

  it('is a tab of the wallet', async () => {
    setup({
      '/api/users/user-1/token/getmyproducts': () => ok({ items: [], nextCursor: null }),
      [ORDER_CALLS.market]: () => ok({ items: [], nextCursor: null }),
    });
    const { router } = renderRoute('/account/wallet/mytokens');
    const tabs = await screen.findByRole('tablist', { name: 'Wallet sections' });
    await userEvent.click(await within(tabs).findByRole('tab', { name: 'History' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/account/wallet/mytokenshistory'),
    );
    expect(await screen.findByText('No copies bought or sold yet')).toBeTruthy();
  });
});
