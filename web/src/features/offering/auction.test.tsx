import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AssignedTokens, AuctionView } from '@shared/schemas/bids';
import type { SavedCard } from '@shared/schemas/payments';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import { auctionViewFixture, bidEntryFixture, myBidFixture } from '../../test/bidFixtures';
import {
  auctionCardFixture,
  auctionDetailFixture,
  ITEM_ID,
  OFFERING_IDS,
  offeringItemFixture,
} from '../../test/offeringFixtures';
import { FakeSocket, savedCardFixture } from '../../test/paymentFixtures';
import {
  addressFixture,
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { bidProblem, suggestedBid } from './bidRules';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown, status = 200) => jsonResponse({ data }, status);
const fail = (code: string, status: number, fields?: Record<string, string>) =>
  jsonResponse(
    { error: { code, message: code, requestId: 't', ...(fields ? { fields } : {}) } },
    status,
  );

const PAGE = `/market/product/${ITEM_ID}`;
const GUEST = '/api/users/-';
const USER = '/api/users/user-1';
const ID = OFFERING_IDS.auction;
const LOT = `${USER}/bid/getbyofferingid/${ID}`;
const CREATE = `${USER}/bid/create`;
const CANCEL = `${USER}/bid/cancel/${ID}`;
const ASSIGNED = `${USER}/offering/getassignedtokens`;

type Handlers = Parameters<typeof mockApi>[0];
type FetchMock = ReturnType<typeof mockApi>;

const callsTo = (fetchMock: FetchMock, path: string) =>
  fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body)) as Record<string, unknown>;

/**
 * The signed-in @ana (user-1) on the auction's item page: the lot `lot()` answers, her saved
 * cards and addresses; the item is delivered to Spain.
 */
function asBidder(
  lot: () => AuctionView,
  extra: Handlers = {},
  options: { cards?: SavedCard[]; live?: boolean } = {},
) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  const config = options.live
    ? { ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' }
    : configWithAuthFixture();
  return mockApi({
    '/api/config': () => ok(config),
    [`${USER}/user-profile`]: () => ok(ownProfileFixture({ onboarding_status: 'complete' })),
    [`${USER}/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture()),
    [`${USER}/offering/getofferings`]: () =>
      ok({ items: [auctionCardFixture()], nextCursor: null }),
    [`${USER}/offering/getofferingbyid/${ID}`]: () => ok(auctionDetailFixture()),
    [LOT]: () => ok(lot()),
    '/api/payment-gateway/payment-methods': () =>
      ok({ payment_methods: options.cards ?? [savedCardFixture()] }),
    [`${USER}/addresses`]: () => ok({ items: [addressFixture()] }),
    [ASSIGNED]: () => ok({ offeringid: ID, tokens: [] }),
    ...extra,
  });
}

/** A guest on the auction's item page: the lot `lot` answers. */
function asGuest(lot: AuctionView) {
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${GUEST}/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture()),
    [`${GUEST}/offering/getofferings`]: () =>
      ok({ items: [auctionCardFixture()], nextCursor: null }),
    [`${GUEST}/offering/getofferingbyid/${ID}`]: () => ok(auctionDetailFixture()),
    [`${GUEST}/bid/getbyofferingid/${ID}`]: () => ok(lot),
  });
}

const panel = () => screen.findByRole('article', { name: 'Offering by @lumen' });

/** @ana on a lot with one bid, followed live: the panel shown and the socket open. */
async function watchingLiveLot(lot: () => AuctionView) {
  vi.stubGlobal('WebSocket', FakeSocket);
  const fetchMock = asBidder(lot, {}, { live: true });
  renderRoute(PAGE);
  const article = await panel();
  await within(article).findByRole('list', { name: 'Bids (1)' });
  await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
  act(() => (FakeSocket.all[0] as FakeSocket).open());
  return { fetchMock, article };
}

/** The lot once @dora bid 18,00 over the first bid: two bids, 19,00 to go on. */
const doraBid = () =>
  auctionViewFixture({
    minimBid: 1900,
    bids: 2,
    bidlist: [
      bidEntryFixture({ bidid: 'b3', nick: 'dora', amount: 1800 }),
      bidEntryFixture({ status: 'outbid' }),
    ],
  });
/** The lot once @ana's bid of $15,50 leads @bruno's (outbid), with the reserve `reserve`. */
const anaLeads = (reserve: AuctionView['reserve']) =>
  auctionViewFixture({
    minimBid: reserve === 'met' ? 1650 : 1600,
    highestBid: 1550,
    reserve,
    bids: 2,
    bidlist: [
      bidEntryFixture({ bidid: 'mine', nick: 'ana', amount: 1550 }),
      bidEntryFixture({ status: 'outbid' }),
    ],
    mine: myBidFixture({ bidid: 'mine' }),
  });
const bidForm = () => screen.findByRole('form', { name: 'Place a bid' });
const amountField = (form: HTMLElement) =>
  within(form).getByRole('textbox', { name: /^Your bid per copy/ });
const maxField = (form: HTMLElement) =>
  within(form).getByRole('textbox', { name: /^Your maximum per copy/ });

async function retype(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  if (text !== '') await userEvent.type(field, text);
}

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
  FakeSocket.all = [];
});

describe('the bid rules the form runs', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');

  it('asks for the minimum next bid, a maximum at least the bid, and one copy', () => {
    const lot = auctionViewFixture();
    expect(suggestedBid(lot)).toEqual({ amount: 1550, max: null, raise: false });
    expect(bidProblem(lot, { amount: 1550, max: null, quantity: 1 }, now)).toBeNull();
    expect(bidProblem(lot, { amount: 1500, max: null, quantity: 1 }, now)).toEqual({
      field: 'bidprice',
      code: 'market.bid.errors.too_low',
    });
    expect(bidProblem(lot, { amount: 1600, max: 1550, quantity: 1 }, now)).toEqual({
      field: 'maxbid',
      code: 'market.bid.errors.max_below_amount',
    });
    expect(bidProblem(lot, { amount: Number.NaN, max: null, quantity: 1 }, now)?.code).toBe(
      'market.bid.errors.amount',
    );
    expect(bidProblem(lot, { amount: 1600, max: null, quantity: 2 }, now)?.field).toBe('quantity');
    expect(
      bidProblem(
        auctionViewFixture({ phase: 'closing' }),
        { amount: 1600, max: null, quantity: 1 },
        now,
      ),
    ).toEqual({ field: null, code: 'market.bid.errors.ended' });
  });

  it('lets a winner raise their maximum without a higher bid, and a rebid keep its copies', () => {
    const winning = auctionViewFixture({ minimBid: 1600, mine: myBidFixture() });
    expect(suggestedBid(winning)).toEqual({ amount: 1550, max: 2050, raise: true });
    expect(bidProblem(winning, { amount: 1550, max: 2050, quantity: 1 }, now)).toBeNull();
    expect(bidProblem(winning, { amount: 1550, max: 2000, quantity: 1 }, now)).toEqual({
      field: 'maxbid',
      code: 'market.bid.errors.not_higher',
    });
    const multi = auctionViewFixture({
      copies: 5,
      multi_copy: true,
      mine: myBidFixture({ quantity: 2, copies: 2 }),
    });
    expect(bidProblem(multi, { amount: 1550, max: 2500, quantity: 3 }, now)).toEqual({
      field: 'quantity',
      code: 'market.bid.errors.rebid_quantity',
    });
  });
});

describe('auction panel', () => {
  it('shows a guest the lot, the bid list and a log-in button instead of the form', async () => {
    asGuest(
      auctionViewFixture({
        reserve: 'met',
        bidlist: [
          bidEntryFixture(),
          bidEntryFixture({ bidid: 'b2', nick: 'carla', amount: 1400, status: 'outbid' }),
        ],
        bids: 2,
      }),
    );
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByText('Reserve met')).toBeTruthy();
    expect(within(article).getByRole('timer', { name: 'Time left' })).toBeTruthy();
    const bids = within(article).getByRole('list', { name: 'Bids (2)' });
    const rows = within(bids).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByText(/^@/).textContent)).toEqual([
      '@bruno',
      '@carla',
    ]);
    expect(within(rows[0] as HTMLElement).getByText('Winning')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Outbid')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('$14,00')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Place a bid' })).toBeNull();
    await userEvent.click(within(article).getByRole('button', { name: 'Log in to bid' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
  });

  it('lists the leading bids of a busy lot, counts every bidder and says how many are not listed', async () => {
    const nicks = ['bruno', 'carla', 'dora', 'ed'];
    asGuest(
      auctionViewFixture({
        bids: 6,
        bidlist: nicks.map((nick, index) =>
          bidEntryFixture({
            bidid: `b${index}`,
            nick,
            amount: 1500 - index * 100,
            status: index === 0 ? 'active' : 'outbid',
          }),
        ),
      }),
    );
    renderRoute(PAGE);
    const article = await panel();
    const bids = await within(article).findByRole('list', { name: 'Bids (6)' });
    expect(within(bids).getAllByRole('listitem')).toHaveLength(4);
    expect(within(article).getByText('2 lower bids are not listed: they are outbid.')).toBeTruthy();
  });

  it('prefills the minimum next bid and refuses a lower one at once, with its text', async () => {
    const fetchMock = asBidder(() => auctionViewFixture());
    renderRoute(PAGE);
    const form = await bidForm();
    const amount = amountField(form);
    expect((amount as HTMLInputElement).value).toBe('15,50');
    expect(
      within(form).getByText('At least $15,50. At this price bids go up in steps of $0,50.'),
    ).toBeTruthy();
    await retype(amount, '15');
    expect(within(form).getByText('Your bid must be at least the minimum bid.')).toBeTruthy();
    await retype(amount, '16');
    await retype(maxField(form), '15,80');
    expect(within(form).getByText('Your maximum must be at least your bid.')).toBeTruthy();
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });

  it('says what a win charges to the card: the deposit per copy at the end, or the price', async () => {
    asBidder(() => auctionViewFixture());
    const view = renderRoute(PAGE);
    const form = await bidForm();
    expect(
      await within(form).findByText(
        'Nothing is charged now. If you win, a deposit of $2,00 per copy is charged to this card when the auction ends, and the rest of your price when the seller is ready.',
      ),
    ).toBeTruthy();
    view.unmount();

    asBidder(() => auctionViewFixture(), {
      [`${USER}/offering/getofferingbyid/${ID}`]: () =>
        ok(auctionDetailFixture({ payment_mode: 'fullprice', deposit: null })),
    });
    renderRoute(PAGE);
    const plain = await bidForm();
    expect(
      await within(plain).findByText(
        'Nothing is charged now. If you win, the price is charged to this card when the auction ends.',
      ),
    ).toBeTruthy();
  });

  it('offers an outbid bidder to raise their bid, title and button alike', async () => {
    asBidder(() =>
      auctionViewFixture({
        minimBid: 2100,
        highestBid: 2050,
        mine: myBidFixture({ status: 'outbid', amount: 1550, max: 1550, price: 1550 }),
      }),
    );
    renderRoute(PAGE);
    const form = await screen.findByRole('form', { name: 'Raise your bid' });
    expect(within(form).getByRole('button', { name: 'Raise my bid' })).toBeTruthy();
    expect((amountField(form) as HTMLInputElement).value).toBe('21,00');
    expect(screen.queryByRole('form', { name: 'Place a bid' })).toBeNull();
  });

  it('below a reserve not met, the leading bid says it leads and would not win yet', async () => {
    let lot = auctionViewFixture({ reserve: 'not_met', highestBid: 1500 });
    asBidder(() => lot, {
      [CREATE]: () => {
        lot = anaLeads('not_met');
        return ok(lot, 201);
      },
    });
    renderRoute(PAGE);
    const form = await bidForm();
    const article = await panel();
    // Before: @bruno leads, and the current price is his bid, not "No bids yet".
    const before = within(article).getByRole('list', { name: 'Bids (1)' });
    expect(within(before).getByText('Leading')).toBeTruthy();
    expect(within(article).queryByText('Winning')).toBeNull();
    expect(within(article).queryByText('No bids yet')).toBeNull();

    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    expect(
      await screen.findByText(
        "Your bid is in and leads, but the seller's reserve is not met yet: below it, no bid wins.",
      ),
    ).toBeTruthy();
    const mine = within(article).getByRole('region', { name: 'Your bid' });
    expect(within(mine).getByText('Leading')).toBeTruthy();
    expect(
      within(mine).getByText(
        "Your bid leads, but the seller's reserve is not met yet: below it, no bid wins. Raise your maximum to reach it.",
      ),
    ).toBeTruthy();
    const rows = within(within(article).getByRole('list', { name: 'Bids (2)' })).getAllByRole(
      'listitem',
    );
    expect(within(rows[0] as HTMLElement).getByText('Leading')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Outbid')).toBeTruthy();
    expect(within(article).getByText('Reserve not met')).toBeTruthy();
  });

  it('places a bid and shows the caller winning, with their bid', async () => {
    let lot = auctionViewFixture();
    const fetchMock = asBidder(() => lot, {
      [CREATE]: () => {
        lot = anaLeads('met');
        return ok(lot, 201);
      },
    });
    renderRoute(PAGE);
    const form = await bidForm();
    // The default card, and the default address (the item is delivered to Spain).
    expect(await within(form).findByText('Visa •••• 4242')).toBeTruthy();
    const address = await within(form).findByRole('radiogroup', { name: 'Delivery address' });
    expect(within(address).getByRole('radio', { name: /Ana García/ })).toHaveProperty(
      'checked',
      true,
    );
    await retype(maxField(form), '20');
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));

    expect(await screen.findByText('Your bid is in: you are winning.')).toBeTruthy();
    expect(bodyOf(callsTo(fetchMock, CREATE)[0])).toEqual({
      offeringid: ID,
      bidprice: 1550,
      maxbid: 2000,
      currency: 'USD',
      quantity: 1,
      payment_method: 'pm_visa',
      postaladdress: {
        country: 'ES',
        fullname: 'Ana García',
        line1: 'Calle Mayor 1',
        line2: null,
        postalcode: '28013',
        city: 'Madrid',
        stateprovince: 'Madrid',
        instructions: null,
      },
    });
    const article = await panel();
    const mine = within(article).getByRole('region', { name: 'Your bid' });
    expect(within(mine).getByText('You are winning.')).toBeTruthy();
    expect(within(mine).getByText('$20,00 per copy')).toBeTruthy();
    expect(within(mine).getByRole('button', { name: 'Cancel my bid' })).toBeTruthy();
    expect(within(article).getByText('Reserve met')).toBeTruthy();
    // The form now raises the maximum.
    const raise = await screen.findByRole('form', { name: 'Raise your maximum' });
    expect((maxField(raise) as HTMLInputElement).value).toBe('20,50');
    expect(within(raise).getByRole('button', { name: 'Raise my bid' })).toBeTruthy();
  });

  it('shows a server refusal under its field, and one without a field above the button', async () => {
    let answer = fail('market.bid.errors.quantity', 400, {
      quantity: 'market.bid.errors.one_copy',
    });
    asBidder(() => auctionViewFixture(), { [CREATE]: () => answer });
    renderRoute(PAGE);
    const form = await bidForm();
    await within(form).findByText('Visa •••• 4242');
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    expect(await within(form).findByText('This auction allows one copy per bidder.')).toBeTruthy();
    answer = fail('market.bid.errors.generic', 503);
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Error sending bid, please try again');
  });

  it('reads the lot again when another user bid the same or higher, with the new minimum', async () => {
    let lot = auctionViewFixture();
    asBidder(() => lot, {
      [CREATE]: () => {
        lot = auctionViewFixture({ minimBid: 1700, highestBid: 1650 });
        return fail('market.bid.errors.beaten', 409, { bidprice: 'market.bid.errors.beaten' });
      },
    });
    renderRoute(PAGE);
    const form = await bidForm();
    await within(form).findByText('Visa •••• 4242');
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    expect(
      await within(form).findByText(
        'Another user bid the same or higher. Check the new minimum bid and try again.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect((amountField(form) as HTMLInputElement).value).toBe('17,00'));
    const article = await panel();
    expect(within(article).getByText('$16,50')).toBeTruthy();
  });

  it("takes a refusal's new minimum at once, before the lot is read again (a second click never resends the refused amount)", async () => {
    let reads = 0;
    const reread = deferred<Response>();
    asBidder(() => auctionViewFixture(), {
      [LOT]: () => {
        reads += 1;
        // The first read shows the lot; the one after the refusal is slow (held here).
        return reads === 1 ? ok(auctionViewFixture()) : reread.promise;
      },
      [CREATE]: () =>
        jsonResponse(
          {
            error: {
              code: 'market.bid.errors.beaten',
              message: 'Another user bid the same or higher.',
              fields: { bidprice: 'market.bid.errors.beaten' },
              details: { minimBid: 1700 },
              requestId: 't',
            },
          },
          409,
        ),
    });
    renderRoute(PAGE);
    const form = await bidForm();
    await within(form).findByText('Visa •••• 4242');
    expect((amountField(form) as HTMLInputElement).value).toBe('15,50');
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    await within(form).findByText(
      'Another user bid the same or higher. Check the new minimum bid and try again.',
    );
    await waitFor(() => expect((amountField(form) as HTMLInputElement).value).toBe('17,00'));
    expect(reads).toBe(2);
    // The lot read again agrees; the page shows its new current price.
    reread.resolve(ok(auctionViewFixture({ minimBid: 1700, highestBid: 1650 })));
    const article = await panel();
    expect(await within(article).findByText('$16,50')).toBeTruthy();
    expect((amountField(form) as HTMLInputElement).value).toBe('17,00');
  });

  it('sends a user without a card to add one, and says so when the server answers no_card', async () => {
    const fetchMock = asBidder(() => auctionViewFixture(), {}, { cards: [] });
    renderRoute(PAGE);
    const form = await bidForm();
    const add = await within(form).findByRole('link', { name: 'Add a card' });
    expect(add.getAttribute('href')).toBe('/account/settings/paymentmethod');
    expect(
      within(form).getByText(
        'Add a card to bid: the winning bid is charged to it when the auction ends.',
      ),
    ).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Place bid' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });

  it('shows the no_card refusal with a way to add a card', async () => {
    asBidder(() => auctionViewFixture(), {
      [CREATE]: () => fail('market.bid.errors.no_card', 402),
    });
    renderRoute(PAGE);
    const form = await bidForm();
    await within(form).findByText('Visa •••• 4242');
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Add a card to bid');
    expect(within(alert).getByRole('link', { name: 'Add a card' }).getAttribute('href')).toBe(
      '/account/settings/paymentmethod',
    );
  });

  it('puts a refused address under the address choice', async () => {
    asBidder(() => auctionViewFixture(), {
      [CREATE]: () =>
        fail('market.buy.errors.country', 400, {
          'postaladdress.country': 'market.buy.errors.country',
        }),
    });
    renderRoute(PAGE);
    const form = await bidForm();
    await within(form).findByRole('radiogroup', { name: 'Delivery address' });
    await within(form).findByText('Visa •••• 4242');
    await userEvent.click(within(form).getByRole('button', { name: 'Place bid' }));
    expect(
      await within(form).findByText('This item is not delivered to that country.'),
    ).toBeTruthy();
  });

  it('cancels the caller’s bid after a confirmation quoting the rule', async () => {
    let lot = auctionViewFixture({
      mine: myBidFixture({ status: 'outbid', copies: 0, price: 0, amount: 1500, max: 1500 }),
    });
    const fetchMock = asBidder(() => lot, {
      [CANCEL]: () => {
        lot = auctionViewFixture({
          mine: myBidFixture({
            status: 'cancelled',
            quantity: 0,
            copies: 0,
            amount: 0,
            max: 0,
            price: 0,
            can_cancel: false,
          }),
        });
        return ok(lot);
      },
    });
    renderRoute(PAGE);
    const article = await panel();
    const mine = await within(article).findByRole('region', { name: 'Your bid' });
    expect(within(mine).getByText('You are outbid: bid again to win.')).toBeTruthy();
    await userEvent.click(within(mine).getByRole('button', { name: 'Cancel my bid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your bid?' });
    expect(
      within(dialog).getByText(
        'A bid can be cancelled while more than 12 hours remain; in the last 12 hours, only within one hour of placing your latest bid; never after the end.',
      ),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel bid' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, CANCEL)[0]?.[1]?.method).toBe('POST');
    expect(await within(article).findByText('You cancelled your bid.')).toBeTruthy();
    expect(within(article).queryByRole('button', { name: 'Cancel my bid' })).toBeNull();
  });

  it('shows a refused cancellation in the dialog', async () => {
    asBidder(() => auctionViewFixture({ mine: myBidFixture() }), {
      [CANCEL]: () => fail('market.bid.errors.retract_closed', 409),
    });
    renderRoute(PAGE);
    const article = await panel();
    await userEvent.click(await within(article).findByRole('button', { name: 'Cancel my bid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your bid?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel bid' }));
    expect(
      await within(dialog).findByText(/Bids can no longer be cancelled: in the last 12 hours/),
    ).toBeTruthy();
  });

  it('follows the lot live: subscribes to its topic, moves the countdown on an extension', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    // The lot is read again at the start of the spread window.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    onTestFinished(() => random.mockRestore());
    const end = new Date(Date.now() + 10 * 60_000).toISOString();
    let lot = auctionViewFixture({ end_at: end, scheduled_end_at: end });
    const fetchMock = asBidder(() => lot, {}, { live: true });
    renderRoute(PAGE);
    const article = await panel();
    const timer = await within(article).findByRole('timer', { name: 'Time left' });
    expect(timer.textContent).toMatch(/^(9|10) min \d+ s$/);
    expect(within(article).queryByText('Extended')).toBeNull();

    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    const socket = FakeSocket.all[0] as FakeSocket;
    act(() => socket.open());
    expect(socket.sent).toContain(JSON.stringify({ action: 'subscribe', topic: `offering:${ID}` }));

    const later = new Date(Date.now() + 25 * 60_000).toISOString();
    lot = auctionViewFixture({ end_at: later, scheduled_end_at: end, minimBid: 1700 });
    const reads = callsTo(fetchMock, LOT).length;
    act(() =>
      FakeSocket.broadcast({
        type: 'auction.extended',
        id: 'm-1',
        topic: `offering:${ID}`,
        offeringId: ID,
        end_at: later,
      }),
    );
    expect(await within(article).findByText('Extended')).toBeTruthy();
    expect(within(article).getByRole('timer', { name: 'Time left' }).textContent).toMatch(
      /^2[45] min \d+ s$/,
    );
    // The lot is read again: the new minimum next bid.
    await waitFor(() => expect(callsTo(fetchMock, LOT).length).toBeGreaterThan(reads));
    expect(await within(article).findByText('$17,00')).toBeTruthy();

    lot = auctionViewFixture({ end_at: later, scheduled_end_at: end, minimBid: 1850 });
    act(() =>
      FakeSocket.broadcast({
        type: 'bid.new',
        id: 'm-2',
        topic: `offering:${ID}`,
        offeringId: ID,
        amount: 1800,
        quantity: 1,
        minimBid: 1850,
        highestBid: 1800,
        nick: 'carla',
        bids: 2,
        end_at: later,
      }),
    );
    expect(await within(article).findByText('$18,50')).toBeTruthy();
  });

  it('reads the lot again once its topic is subscribed: a bid made before that is shown', async () => {
    let lot = auctionViewFixture();
    const { fetchMock, article } = await watchingLiveLot(() => lot);
    // Dora bid after the lot was read and before the subscription was in: nobody here heard it.
    lot = doraBid();
    const before = callsTo(fetchMock, LOT).length;
    // Another topic's acknowledgement reads nothing.
    act(() => FakeSocket.broadcast({ type: 'subscribed', id: 's-0', topic: 'offering:other' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo(fetchMock, LOT).length).toBe(before);
    act(() => FakeSocket.broadcast({ type: 'subscribed', id: 's-1', topic: `offering:${ID}` }));
    expect(await within(article).findByRole('list', { name: 'Bids (2)' })).toBeTruthy();
    expect(within(article).getByText('$19,00')).toBeTruthy();
    expect(callsTo(fetchMock, LOT).length).toBe(before + 1);
  });

  it("spreads the watchers' reads: one read of the lot for a burst of bids, the viewer's own news at once", async () => {
    // This watcher's moment: the middle of the 2 s window.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    onTestFinished(() => random.mockRestore());
    let lot = auctionViewFixture();
    const { fetchMock, article } = await watchingLiveLot(() => lot);
    const before = callsTo(fetchMock, LOT).length;
    lot = doraBid();
    for (const [index, minimBid] of [1650, 1750, 1900].entries()) {
      act(() =>
        FakeSocket.broadcast({
          type: 'bid.new',
          id: `m-${index}`,
          topic: `offering:${ID}`,
          offeringId: ID,
          minimBid,
          highestBid: minimBid - 100,
          nick: 'dora',
          bids: 2,
        }),
      );
    }
    // What the events carry shows at once; the lot is not read yet.
    expect(await within(article).findByText('$19,00')).toBeTruthy();
    expect(callsTo(fetchMock, LOT).length).toBe(before);
    // Within the window, one read for the three bids: the new bid list.
    expect(
      await within(article).findByRole('list', { name: 'Bids (2)' }, { timeout: 3_000 }),
    ).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(callsTo(fetchMock, LOT).length).toBe(before + 1);
    // The viewer's own news (outbid on their channel) reads the lot at once.
    act(() =>
      FakeSocket.broadcast({
        type: 'bid.outbid',
        id: 'm-own',
        offeringId: ID,
        minimBid: 1900,
      }),
    );
    await waitFor(() => expect(callsTo(fetchMock, LOT).length).toBe(before + 2), {
      timeout: 500,
    });
  }, 10_000);

  it('offers Buy now on an auction with a buy-now price until its first bid', async () => {
    asBidder(
      () =>
        auctionViewFixture({ bids: 0, bidlist: [], highestBid: null, minimBid: 1000, copies: 1 }),
      {
        [`${USER}/offering/getofferingbyid/${ID}`]: () =>
          ok(auctionDetailFixture({ buy_price: 5000, bids: 0 })),
      },
    );
    renderRoute(PAGE);
    const card = await panel();
    expect(await within(card).findByRole('button', { name: 'Buy now' })).toBeTruthy();
  });

  it('offers no Buy now once the auction has a bid', async () => {
    asBidder(() => auctionViewFixture(), {
      [`${USER}/offering/getofferingbyid/${ID}`]: () =>
        ok(auctionDetailFixture({ buy_price: 5000 })),
    });
    renderRoute(PAGE);
    await bidForm();
    expect(within(await panel()).queryByRole('button', { name: 'Buy now' })).toBeNull();
  });

  it('shows the seller the lot and their reserve, without the form', async () => {
    storeSignedInSession();
    amplify.fetchAuthSession.mockResolvedValue(signedInSession);
    const card = auctionCardFixture({ seller: { id: 'user-1', nick: 'ana' } });
    mockApi({
      '/api/config': () => ok(configWithAuthFixture()),
      [`${USER}/user-profile`]: () => ok(ownProfileFixture({ onboarding_status: 'complete' })),
      [`${USER}/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture()),
      [`${USER}/offering/getofferings`]: () => ok({ items: [card], nextCursor: null }),
      [`${USER}/offering/getofferingbyid/${ID}`]: () =>
        ok({
          ...auctionDetailFixture({ is_seller: true, reserve_price: 2500 }),
          seller: card.seller,
        }),
      [LOT]: () => ok(auctionViewFixture()),
    });
    renderRoute(PAGE);
    const article = await screen.findByRole('article', { name: 'Your offering' });
    expect(
      await within(article).findByText(
        'Your reserve price: $25,00 per copy. Bidders only see whether it is met.',
      ),
    ).toBeTruthy();
    expect(within(article).getByRole('list', { name: 'Bids (1)' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Place a bid' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log in to bid' })).toBeNull();
  });

  it('says the winners are being processed, then links a winner to their order', async () => {
    let lot = auctionViewFixture({ phase: 'closing', mine: myBidFixture({ can_cancel: false }) });
    asBidder(() => lot, {}, { live: true });
    vi.stubGlobal('WebSocket', FakeSocket);
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByText('Processing winners')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Place a bid' })).toBeNull();

    lot = auctionViewFixture({
      phase: 'closed',
      mine: myBidFixture({
        status: 'winner',
        can_cancel: false,
        order_id: 'oR01JF0000000000000000000001',
        pay_by: '2099-01-03T12:00:00.000Z',
      }),
    });
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    act(() =>
      FakeSocket.broadcast({
        type: 'auction.result',
        id: 'm-1',
        offeringId: ID,
        result: 'won',
        orderId: 'oR01JF0000000000000000000001',
      }),
    );
    expect(await within(article).findByText('Closed')).toBeTruthy();
    expect(within(article).getByText('You won.')).toBeTruthy();
    // The one copy's price is final, no longer "current".
    expect(within(article).getByText('Final price')).toBeTruthy();
    expect(within(article).queryByText('Current price')).toBeNull();
    // (Once the copies are read: this winner has none to show yet, so the lot's order shows.)
    expect(
      (await within(article).findByRole('link', { name: 'Go to your order' })).getAttribute('href'),
    ).toBe('/account/orders/oR01JF0000000000000000000001');
    expect(within(article).getByText(/^Pay by /)).toBeTruthy();
  });

  it('reads the lot again when the countdown reaches the end, then shows the winners being processed', async () => {
    const end = new Date(Date.now() + 1_200).toISOString();
    let reads = 0;
    asBidder(() => {
      reads += 1;
      return auctionViewFixture({
        end_at: end,
        scheduled_end_at: end,
        phase: reads === 1 ? 'open' : 'closing',
      });
    });
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByRole('timer', { name: 'Time left' })).toBeTruthy();
    expect(await within(article).findByText('Processing winners')).toBeTruthy();
    expect(
      within(article).getByText(
        'The auction has ended. The winners are being chosen and their orders made.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Place a bid' })).toBeNull();
  });

  it('shows no lot for an auction still waiting for support', async () => {
    const fetchMock = asBidder(() => auctionViewFixture(), {
      [`${USER}/offering/getofferingbyid/${ID}`]: () =>
        ok(
          auctionDetailFixture({
            status: 'pending',
            display_status: 'pending',
            auction_display: null,
          }),
        ),
      [`${USER}/offering/getofferings`]: () =>
        ok({
          items: [
            auctionCardFixture({
              status: 'pending',
              display_status: 'pending',
              auction_display: null,
            }),
          ],
          nextCursor: null,
        }),
    });
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByText('Starting bid $10,00')).toBeTruthy();
    expect(within(article).getByText('$10,00')).toBeTruthy();
    expect(callsTo(fetchMock, LOT)).toHaveLength(0);
    expect(screen.queryByRole('form', { name: 'Place a bid' })).toBeNull();
  });

  it('fits a phone: the form and the bid list at 375 px', async () => {
    const { setViewportWidth, PHONE_WIDTH } = await import('../../test/viewport');
    setViewportWidth(PHONE_WIDTH);
    asBidder(() => auctionViewFixture());
    renderRoute(PAGE);
    const form = await bidForm();
    expect(within(form).getByRole('button', { name: 'Place bid' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Bids (1)' })).toBeTruthy();
  });

  it('says so when the bids cannot be loaded, with a retry', async () => {
    let failing = true;
    asBidder(() => auctionViewFixture(), {
      [LOT]: () => (failing ? fail('market.bid.errors.load', 503) : ok(auctionViewFixture())),
    });
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByText(/^Error get bids/)).toBeTruthy();
    failing = false;
    await userEvent.click(within(article).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('form', { name: 'Place a bid' })).toBeTruthy();
  });
});

const ORDER_A = 'oR01JF0000000000000000000001';
const ORDER_B = 'oR01JF0000000000000000000002';

/** One copy the caller got: #3 of the winner's round, paid, at $15,50. */
function assignedCopy(
  overrides: Partial<AssignedTokens['tokens'][number]> = {},
): AssignedTokens['tokens'][number] {
  return {
    copy_id: `${ITEM_ID}-003`,
    item_id: ITEM_ID,
    index: 3,
    order_id: ORDER_A,
    assignround: 'winner',
    price: 1550,
    paid: true,
    pay_by: null,
    balance_due: 0,
    ...overrides,
  };
}

/** The lot closed with the caller (@ana) its winner, her order `orderId` to pay by 3 Jan 2099. */
const wonLot = (phase: AuctionView['phase'] = 'closed') =>
  auctionViewFixture({
    phase,
    copies: 2,
    multi_copy: true,
    mine: myBidFixture({
      status: 'winner',
      quantity: 2,
      copies: 2,
      can_cancel: false,
      order_id: ORDER_A,
      pay_by: '2099-01-03T12:00:00.000Z',
    }),
  });

describe('the copies a winner got', () => {
  it('shows a winner their copy numbers, a paid copy as Paid and an unpaid one with its pay link', async () => {
    const fetchMock = asBidder(() => wonLot(), {
      [ASSIGNED]: () =>
        ok({
          offeringid: ID,
          // Out of order on the wire: the panel lists them by serial.
          tokens: [
            assignedCopy({
              copy_id: `${ITEM_ID}-005`,
              index: 5,
              order_id: ORDER_B,
              assignround: 'substitute',
              price: 1400,
              paid: false,
              pay_by: '2099-01-05T12:00:00.000Z',
            }),
            assignedCopy(),
          ],
        }),
    });
    renderRoute(PAGE);
    const article = await panel();
    const mine = await within(article).findByRole('region', { name: 'Your bid' });
    const copies = await within(mine).findByRole('list', { name: 'Your copies: #3, #5' });
    expect(bodyOf(callsTo(fetchMock, ASSIGNED)[0])).toEqual({ offeringid: ID });
    const rows = within(copies).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Copy #3', 'Copy #5']);

    const paid = within(copies).getByRole('listitem', { name: 'Copy #3' });
    expect(within(paid).getByText('Paid')).toBeTruthy();
    expect(within(paid).getByText('$15,50')).toBeTruthy();
    expect(within(paid).queryByText(/^Pay by /)).toBeNull();
    expect(within(paid).getByRole('link', { name: 'View order' }).getAttribute('href')).toBe(
      `/account/orders/${ORDER_A}`,
    );

    const due = within(copies).getByRole('listitem', { name: 'Copy #5' });
    expect(within(due).queryByText('Paid')).toBeNull();
    expect(within(due).getByText(/^Pay by \d{2}\/01\/2099 \d{2}:\d{2}$/)).toBeTruthy();
    expect(within(due).getByText('Second chance')).toBeTruthy();
    expect(within(due).getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe(
      `/account/orders/${ORDER_B}`,
    );
    // What the winner pays (not "if it ends now": it has ended).
    expect(within(mine).getByText('Your price')).toBeTruthy();
    expect(within(mine).queryByText('You pay if it ends now')).toBeNull();
    // The copies stand for the order: its own button is not repeated.
    expect(within(mine).queryByRole('link', { name: 'Go to your order' })).toBeNull();
  });

  it("shows a deposit auction's copy as deposit paid, with the balance due when the seller is ready", async () => {
    asBidder(() => wonLot(), {
      [ASSIGNED]: () =>
        ok({ offeringid: ID, tokens: [assignedCopy({ paid: true, balance_due: 1350 })] }),
    });
    renderRoute(PAGE);
    const article = await panel();
    const copies = await within(article).findByRole('list', { name: 'Your copy: #3' });
    const row = within(copies).getByRole('listitem', { name: 'Copy #3' });
    expect(within(row).getByText('Deposit paid')).toBeTruthy();
    expect(within(row).getByText('$13,50 more when the seller is ready')).toBeTruthy();
    expect(within(row).queryByText('Paid')).toBeNull();
    expect(within(row).getByRole('link', { name: 'View order' })).toBeTruthy();
  });

  it('says "Your copy" for one copy, and shows a skeleton while the copies load', async () => {
    let answer: (() => Response) | null = null;
    asBidder(() => wonLot(), {
      [ASSIGNED]: () =>
        new Promise<Response>((resolve) => {
          answer = () => {
            const response = ok({ offeringid: ID, tokens: [assignedCopy()] });
            resolve(response);
            return response;
          };
        }),
    });
    renderRoute(PAGE);
    const article = await panel();
    expect(
      await within(article).findByRole('status', { name: 'Loading your copies' }),
    ).toBeTruthy();
    await waitFor(() => expect(answer).not.toBeNull());
    act(() => void answer?.());
    expect(await within(article).findByRole('list', { name: 'Your copy: #3' })).toBeTruthy();
    expect(within(article).queryByRole('status', { name: 'Loading your copies' })).toBeNull();
  });

  it('shows nothing of copies when there are none, and the order as the lot gives it', async () => {
    asBidder(() => wonLot());
    renderRoute(PAGE);
    const article = await panel();
    const mine = await within(article).findByRole('region', { name: 'Your bid' });
    expect(await within(mine).findByRole('link', { name: 'Go to your order' })).toBeTruthy();
    expect(within(mine).queryByText(/^Your cop(y|ies)/)).toBeNull();
    expect(within(mine).queryByRole('status', { name: 'Loading your copies' })).toBeNull();
  });

  it('does not ask for copies while the caller is bidding or lost', async () => {
    const fetchMock = asBidder(() =>
      auctionViewFixture({
        phase: 'closed',
        mine: myBidFixture({ status: 'notwinner', can_cancel: false, copies: 0, price: 0 }),
      }),
    );
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByText('You did not win this auction.')).toBeTruthy();
    expect(callsTo(fetchMock, ASSIGNED)).toHaveLength(0);
  });

  it('says when the copies cannot be loaded, with the order still there, and retries', async () => {
    let failing = true;
    asBidder(() => wonLot(), {
      [ASSIGNED]: () =>
        failing
          ? fail('market.bid.errors.load', 503)
          : ok({ offeringid: ID, tokens: [assignedCopy()] }),
    });
    renderRoute(PAGE);
    const article = await panel();
    const mine = await within(article).findByRole('region', { name: 'Your bid' });
    const alert = await within(mine).findByRole('alert');
    expect(alert.textContent).toMatch(/^Your copies could not be loaded: Error get bids/);
    // Meanwhile the order can still be paid.
    expect(within(mine).getByRole('link', { name: 'Go to your order' })).toBeTruthy();
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const copies = await within(mine).findByRole('list', { name: 'Your copy: #3' });
    expect(within(copies).getByText('Paid')).toBeTruthy();
    expect(within(mine).queryByRole('alert')).toBeNull();
  });

  it('reads the copies again when the live channel brings the result or a phase', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    let lot = auctionViewFixture({ phase: 'closing', mine: myBidFixture({ can_cancel: false }) });
    let tokens = [assignedCopy({ paid: false, pay_by: '2099-01-03T12:00:00.000Z' })];
    const fetchMock = asBidder(
      () => lot,
      { [ASSIGNED]: () => ok({ offeringid: ID, tokens }) },
      { live: true },
    );
    renderRoute(PAGE);
    const article = await panel();
    expect(await within(article).findByText('Processing winners')).toBeTruthy();
    // Still winning, not won yet: no copies asked for.
    expect(callsTo(fetchMock, ASSIGNED)).toHaveLength(0);
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    act(() => (FakeSocket.all[0] as FakeSocket).open());

    // The close picks Ana: her card is being charged.
    lot = wonLot('closing');
    act(() =>
      FakeSocket.broadcast({
        type: 'auction.result',
        id: 'm-1',
        offeringId: ID,
        result: 'won',
        orderId: ORDER_A,
      }),
    );
    const copies = await within(article).findByRole('list', { name: 'Your copy: #3' });
    expect(within(copies).getByText(/^Pay by /)).toBeTruthy();
    const reads = callsTo(fetchMock, ASSIGNED).length;

    // The charge went through and the lot closed.
    tokens = [assignedCopy()];
    lot = wonLot('closed');
    act(() =>
      FakeSocket.broadcast({
        type: 'auction.phase',
        id: 'm-2',
        topic: `offering:${ID}`,
        offeringId: ID,
        phase: 'closed',
      }),
    );
    expect(await within(copies).findByText('Paid')).toBeTruthy();
    expect(callsTo(fetchMock, ASSIGNED).length).toBeGreaterThan(reads);
    expect(within(copies).queryByText(/^Pay by /)).toBeNull();
  });

  it('reads the copies again when the lot, read again, has moved on (no result message)', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    let lot = wonLot('closing');
    let tokens = [assignedCopy({ paid: false, pay_by: '2099-01-03T12:00:00.000Z' })];
    const fetchMock = asBidder(
      () => lot,
      { [ASSIGNED]: () => ok({ offeringid: ID, tokens }) },
      { live: true },
    );
    renderRoute(PAGE);
    const article = await panel();
    const copies = await within(article).findByRole('list', { name: 'Your copy: #3' });
    expect(within(copies).getByText(/^Pay by /)).toBeTruthy();
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    act(() => (FakeSocket.all[0] as FakeSocket).open());
    const reads = callsTo(fetchMock, ASSIGNED).length;
    // The lot is read again (here for its counters) and says closed: the copies follow.
    tokens = [assignedCopy()];
    lot = wonLot('closed');
    act(() =>
      FakeSocket.broadcast({
        type: 'offering.stats',
        id: 'm-4',
        topic: `offering:${ID}`,
        offeringId: ID,
        bids: 1,
      }),
    );
    expect(await within(copies).findByText('Paid')).toBeTruthy();
    expect(callsTo(fetchMock, ASSIGNED)).toHaveLength(reads + 1);
  });

  it('reads the copies again when one of their orders is paid elsewhere', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    let tokens = [assignedCopy({ paid: false, pay_by: '2099-01-03T12:00:00.000Z' })];
    asBidder(() => wonLot(), { [ASSIGNED]: () => ok({ offeringid: ID, tokens }) }, { live: true });
    renderRoute(PAGE);
    const article = await panel();
    const copies = await within(article).findByRole('list', { name: 'Your copy: #3' });
    expect(within(copies).getByRole('link', { name: 'Pay now' })).toBeTruthy();
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    act(() => (FakeSocket.all[0] as FakeSocket).open());
    tokens = [assignedCopy()];
    act(() => FakeSocket.broadcast({ type: 'order.paid', id: 'm-3', orderId: ORDER_A }));
    expect(await within(copies).findByText('Paid')).toBeTruthy();
    expect(within(copies).getByRole('link', { name: 'View order' })).toBeTruthy();
  });
});
