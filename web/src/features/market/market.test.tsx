import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OfferingCard } from '@shared/schemas/offerings';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userCard } from '../../lib/userCardStore';
import { myBidFixture, myBidsItemFixture } from '../../test/bidFixtures';
import { configWithAuthFixture } from '../../test/fixtures';
import {
  auctionCardFixture,
  COLLECTION_ID,
  collectionFixture,
  MARKET_NOW,
  marketCardFixture,
  marketCards,
  offeringPage,
} from '../../test/marketFixtures';
import {
  ownProfileFixture,
  publicProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { readMarketFilters, writeMarketFilters } from './filters';

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

const GUEST = '/api/users/-';
const USER = '/api/users/user-1';
const MARKET = '/market/preview/marketplace';

type Handlers = Parameters<typeof mockApi>[0];
type FetchMock = ReturnType<typeof mockApi>;
type Body = Record<string, unknown>;

const bodyOf = (init?: RequestInit): Body =>
  init?.body ? (JSON.parse(String(init.body)) as Body) : {};

/** The request bodies sent to `path`, in order. */
const bodiesTo = (fetchMock: FetchMock, path: string): Body[] =>
  fetchMock.mock.calls
    .filter(([input]) => new URL(String(input), 'http://localhost').pathname === path)
    .map(([, init]) => bodyOf(init));

const callsTo = (fetchMock: FetchMock, part: string) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes(part));

function asGuest(extra: Handlers = {}) {
  return mockApi({ '/api/config': () => ok(configWithAuthFixture()), ...extra });
}

/** The signed-in user-1 (@ana), an individual whose seller onboarding is complete. */
function asUser(
  extra: Handlers = {},
  profile = ownProfileFixture({ onboarding_status: 'complete' }),
) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${USER}/user-profile`]: () => ok(profile),
    [`${USER}/favorites`]: () => ok(offeringPage([])),
    ...extra,
  });
}

/** getofferings answering the market `market`, and the invitations strip `invited`. */
const offerings =
  (market: OfferingCard[], invited: OfferingCard[] = []) =>
  (_url: URL, init?: RequestInit) =>
    ok(offeringPage(bodyOf(init).invited ? invited : market));

const card = (title: string) => screen.findByRole('article', { name: title });

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('market tabs', () => {
  it.each([
    ['marketplace', 'Market', () => screen.findByRole('list', { name: 'Offerings on the market' })],
    ['myofferings', 'My Offerings', () => screen.findByRole('list', { name: 'Your offerings' })],
    ['mybids', 'My Bids', () => screen.findByText('Your bids will appear here')],
    ['favorites', 'Favorites', () => screen.findByRole('list', { name: 'Your favourites' })],
    ['collections', 'Collections', () => screen.findByRole('list', { name: 'Your collections' })],
  ])('loads /market/preview/%s directly with its tab selected', async (tab, name, content) => {
    const mine = marketCardFixture({ seller: { id: 'user-1', nick: 'ana' } });
    asUser({
      [`${USER}/offering/getofferings`]: offerings([marketCardFixture()]),
      [`${USER}/offering/getmyofferings`]: () => ok(offeringPage([mine])),
      [`${USER}/favorites`]: () => ok(offeringPage([marketCardFixture()])),
      [`${USER}/offering/getmyownercollections`]: () => ok({ items: [collectionFixture()] }),
      [`${USER}/offering/getmybettedofferings`]: () => ok({ items: [], nextCursor: null }),
    });
    renderRoute(`/market/preview/${tab}`);
    expect(await content()).toBeTruthy();
    const tabs = screen.getByRole('tablist', { name: 'Market sections' });
    expect(within(tabs).getByRole('tab', { name, selected: true })).toBeTruthy();
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((node) => node.textContent),
    ).toEqual(['Market', 'My Offerings', 'My Bids', 'Favorites', 'Collections']);
    expect(screen.getByRole('tabpanel', { name })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Market' })).toBeTruthy();
  });

  it('sends /market to the market tab and an unknown tab to the 404 page', async () => {
    asGuest({ [`${GUEST}/offering/getofferings`]: offerings([]) });
    const { router } = renderRoute('/market');
    await waitFor(() => expect(router.state.location.pathname).toBe(MARKET));
    expect(await screen.findByText('Nothing is on sale yet')).toBeTruthy();
    expect(document.title).toBe('Market · MintMarket');
    await router.navigate('/market/preview/auctions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });

  it('switches tabs by their links', async () => {
    asUser({
      [`${USER}/offering/getofferings`]: offerings([marketCardFixture()]),
      [`${USER}/offering/getmyownercollections`]: () => ok({ items: [collectionFixture()] }),
    });
    const { router } = renderRoute(MARKET);
    await card('Stoneware mug');
    await userEvent.click(screen.getByRole('tab', { name: 'Collections' }));
    expect(router.state.location.pathname).toBe('/market/preview/collections');
    const link = await screen.findByRole('link', { name: 'Tidewater editions' });
    expect(link.getAttribute('href')).toBe(`/market/collection/${COLLECTION_ID}`);
    expect(screen.getByText('TIDE · 4 items')).toBeTruthy();
  });

  it('lists Market in the side bar', async () => {
    asGuest({ [`${GUEST}/offering/getofferings`]: offerings([]) });
    renderRoute('/legal/terms');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Market' }).getAttribute('href')).toBe(MARKET);
  });
});

describe('guests', () => {
  it('see the market preview through the guest path', async () => {
    const fetchMock = asGuest({
      [`${GUEST}/offering/getofferings`]: offerings([marketCardFixture()]),
    });
    renderRoute(MARKET);
    expect(await card('Stoneware mug')).toBeTruthy();
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([
      { types: [], category: 'any', offer: 'any', limit: 50 },
    ]);
    // No invitations strip for a guest.
    expect(screen.queryByRole('region', { name: 'Invited to' })).toBeNull();
  });

  it.each([
    ['myofferings', 'Log in to see your offerings'],
    ['mybids', 'Log in to see your bids'],
    ['favorites', 'Log in to see your favourites'],
    ['collections', 'Log in to see your collections'],
  ])('get a login prompt on %s that opens the login modal', async (tab, title) => {
    const fetchMock = asGuest();
    renderRoute(`/market/preview/${tab}`);
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
    expect(callsTo(fetchMock, '/offering/').length + callsTo(fetchMock, '/favorites').length).toBe(
      0,
    );
  });

  it('are sent to the login modal by the heart, and nothing is saved', async () => {
    const fetchMock = asGuest({
      [`${GUEST}/offering/getofferings`]: offerings([marketCardFixture()]),
    });
    renderRoute(MARKET);
    const mug = await card('Stoneware mug');
    await userEvent.click(within(mug).getByRole('button', { name: 'Add to favourites' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
    expect(callsTo(fetchMock, '/favorites')).toHaveLength(0);
  });
});

describe('market filters', () => {
  it('go into the request body and the address', async () => {
    const fetchMock = asGuest({
      [`${GUEST}/offering/getofferings`]: offerings([marketCardFixture()]),
    });
    const { router } = renderRoute(MARKET);
    await card('Stoneware mug');
    const filters = screen.getByRole('region', { name: 'Filter the offerings' });
    const types = within(filters).getByRole('group', { name: 'Type' });
    await userEvent.click(within(types).getByRole('button', { name: 'Ticket' }));
    await userEvent.click(within(types).getByRole('button', { name: 'Physical' }));
    await userEvent.selectOptions(within(filters).getByLabelText('Category'), 'art');
    await userEvent.selectOptions(within(filters).getByLabelText('Offer'), 'auction');
    await waitFor(() =>
      expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`).at(-1)).toEqual({
        types: ['physical', 'ticket'],
        category: 'art',
        offer: 'auction',
        limit: 50,
      }),
    );
    expect(router.state.location.search).toBe(
      '?type=product_physical&type=ticket&category=art&offer=auction',
    );
    expect(
      within(types).getByRole('button', { name: 'Physical' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(within(types).getByRole('button', { name: 'Any' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    // "Any" clears the types.
    await userEvent.click(within(types).getByRole('button', { name: 'Any' }));
    expect(router.state.location.search).toBe('?category=art&offer=auction');
  });

  it('are read from the address on a direct load', async () => {
    const fetchMock = asGuest({
      [`${GUEST}/offering/getofferings`]: offerings([marketCardFixture()]),
    });
    renderRoute(`${MARKET}?type=ticket&category=music&offer=buy&type=bogus`);
    await card('Stoneware mug');
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([
      { types: ['ticket'], category: 'music', offer: 'buy', limit: 50 },
    ]);
    const filters = screen.getByRole('region', { name: 'Filter the offerings' });
    expect(
      within(filters).getByRole('button', { name: 'Ticket' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect((within(filters).getByLabelText('Category') as HTMLSelectElement).value).toBe('music');
    expect((within(filters).getByLabelText('Offer') as HTMLSelectElement).value).toBe('buy');
  });

  it('round-trip through the address in a stable order', () => {
    const params = writeMarketFilters({
      types: ['ticket', 'product_physical'],
      category: 'art',
      offer: 'any',
    });
    expect(params.toString()).toBe('type=product_physical&type=ticket&category=art');
    expect(readMarketFilters(params)).toEqual({
      types: ['product_physical', 'ticket'],
      category: 'art',
      offer: 'any',
    });
    expect(readMarketFilters(new URLSearchParams('category=nope&offer=free'))).toEqual({
      types: [],
      category: 'any',
      offer: 'any',
    });
  });
});

describe('market list', () => {
  it('loads the next page with the cursor of the previous one', async () => {
    const cards = marketCards(3);
    const fetchMock = asGuest({
      [`${GUEST}/offering/getofferings`]: (_url, init) =>
        bodyOf(init).last === 'cursor-2'
          ? ok(offeringPage(cards.slice(2)))
          : ok(offeringPage(cards.slice(0, 2), 'cursor-2')),
    });
    renderRoute(MARKET);
    await card('Edition 2');
    expect(screen.queryByRole('article', { name: 'Edition 3' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await card('Edition 3')).toBeTruthy();
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([
      { types: [], category: 'any', offer: 'any', limit: 50 },
      { types: [], category: 'any', offer: 'any', limit: 50, last: 'cursor-2' },
    ]);
    const list = screen.getByRole('list', { name: 'Offerings on the market' });
    expect(within(list).getAllByRole('article')).toHaveLength(3);
    // The last page has no cursor: no more Load more.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when no offering matches the filters, and clears them', async () => {
    const fetchMock = asGuest({
      [`${GUEST}/offering/getofferings`]: (_url, init) =>
        ok(offeringPage(bodyOf(init).offer === 'auction' ? [] : [marketCardFixture()])),
    });
    const { router } = renderRoute(`${MARKET}?offer=auction`);
    const title = await screen.findByRole('heading', { name: 'No offerings match these filters' });
    await userEvent.click(
      within(title.parentElement as HTMLElement).getByRole('button', { name: 'Clear filters' }),
    );
    expect(await card('Stoneware mug')).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`).at(-1)).toEqual({
      types: [],
      category: 'any',
      offer: 'any',
      limit: 50,
    });
  });

  it('shows the error with a retry', async () => {
    let calls = 0;
    asGuest({
      [`${GUEST}/offering/getofferings`]: () => {
        calls += 1;
        return calls === 1 ? fail('unexpected', 500) : ok(offeringPage([marketCardFixture()]));
      },
    });
    renderRoute(MARKET);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error get offerings')).toBeTruthy();
    expect(within(alert).getByText('Unexpected Error')).toBeTruthy();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await card('Stoneware mug')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the invitations strip above the market for a signed-in user', async () => {
    const invitation = marketCardFixture({
      access: 'private',
      item: { ...marketCardFixture().item, title: 'Members-only print' },
    });
    const fetchMock = asUser({
      [`${USER}/offering/getofferings`]: offerings([marketCardFixture()], [invitation]),
    });
    renderRoute(MARKET);
    const strip = await screen.findByRole('region', { name: 'Invited to' });
    const print = within(strip).getByRole('article', { name: 'Members-only print' });
    expect(within(print).getByText('Private')).toBeTruthy();
    expect(bodiesTo(fetchMock, `${USER}/offering/getofferings`)).toContainEqual({
      invited: true,
      limit: 10,
    });
  });
});

describe('offering card', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(MARKET_NOW);
  });

  it("shows 'Buy Now' or 'Auction', the price or bid, copies left and time left", async () => {
    const fixed = marketCardFixture();
    const auction = auctionCardFixture();
    const bidOn = auctionCardFixture({
      highest_bid: 1500,
      currency: 'EUR',
      end_at: '2026-03-04T09:00:00.000Z',
      item: { ...auctionCardFixture().item, title: 'Signed poster' },
    });
    const soldOut = marketCardFixture({
      access: 'private',
      copies_left: 0,
      item: { ...marketCardFixture().item, title: 'Last lamp' },
    });
    asGuest({ [`${GUEST}/offering/getofferings`]: offerings([fixed, auction, bidOn, soldOut]) });
    renderRoute(MARKET);

    const mug = await card('Stoneware mug');
    expect(within(mug).getByText('Buy Now')).toBeTruthy();
    expect(within(mug).getByText('by @lumen')).toBeTruthy();
    expect(within(mug).getByText('Price')).toBeTruthy();
    expect(within(mug).getByText('$12,50')).toBeTruthy();
    expect(within(mug).getByText('3 of 10 left')).toBeTruthy();
    expect(within(mug).queryByText(/Ends in|Ended/)).toBeNull();
    expect(within(mug).queryByText('Private')).toBeNull();
    expect(within(mug).getByRole('link', { name: 'Stoneware mug' }).getAttribute('href')).toBe(
      `/market/product/${fixed.item.id}?offering=${fixed.id}`,
    );

    const pressing = await card('Test pressing');
    expect(within(pressing).getByText('Auction')).toBeTruthy();
    expect(within(pressing).getByText('Minimum bid')).toBeTruthy();
    expect(within(pressing).getByText('$10,00')).toBeTruthy();
    expect(within(pressing).getByText('1 of 1 left')).toBeTruthy();
    expect(within(pressing).getByText('Ends in 2d 4h')).toBeTruthy();

    const poster = await card('Signed poster');
    expect(within(poster).getByText('Highest bid')).toBeTruthy();
    expect(within(poster).getByText('€15,00')).toBeTruthy();
    expect(within(poster).getByText('EUR')).toBeTruthy();
    expect(within(poster).getByText('Ended')).toBeTruthy();

    const lamp = await card('Last lamp');
    expect(within(lamp).getByText('Private')).toBeTruthy();
    expect(within(lamp).getByText('Sold out')).toBeTruthy();
  });

  it('counts down in hours and minutes on the last day', async () => {
    asGuest({
      [`${GUEST}/offering/getofferings`]: offerings([
        auctionCardFixture({ end_at: '2026-03-04T15:12:30.000Z' }),
        auctionCardFixture({
          end_at: '2026-03-04T10:20:00.000Z',
          item: { ...auctionCardFixture().item, title: 'Last call' },
        }),
      ]),
    });
    renderRoute(MARKET);
    expect(within(await card('Test pressing')).getByText('Ends in 5h 12m')).toBeTruthy();
    expect(within(await card('Last call')).getByText('Ends in 20m')).toBeTruthy();
  });
});

describe('favourites', () => {
  it('turns the heart at once and back when saving fails', async () => {
    const mug = marketCardFixture();
    const answer = deferred<Response>();
    const fetchMock = asUser({
      [`${USER}/offering/getofferings`]: offerings([mug]),
      [`${USER}/favorites/${mug.id}`]: () => answer.promise,
    });
    renderRoute(MARKET);
    const article = await card('Stoneware mug');
    const heart = await within(article).findByRole('button', {
      name: 'Add to favourites',
    });
    await waitFor(() => expect((heart as HTMLButtonElement).disabled).toBe(false));
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(heart);
    const pressed = await within(article).findByRole('button', {
      name: 'Remove from favourites',
    });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    const [, init] = callsTo(fetchMock, `/favorites/${mug.id}`)[0] ?? [];
    expect(init?.method).toBe('PUT');
    await act(async () => answer.resolve(fail('unexpected', 500)));
    const back = await within(article).findByRole('button', {
      name: 'Add to favourites',
    });
    expect(back.getAttribute('aria-pressed')).toBe('false');
    expect(await screen.findByText('Unexpected Error')).toBeTruthy();
  });

  it('shows the saved favourites filled', async () => {
    const mug = marketCardFixture();
    asUser({
      [`${USER}/offering/getofferings`]: offerings([mug]),
      [`${USER}/favorites`]: () => ok(offeringPage([mug])),
    });
    renderRoute(MARKET);
    const article = await card('Stoneware mug');
    const heart = await within(article).findByRole('button', {
      name: 'Remove from favourites',
    });
    expect(heart.getAttribute('aria-pressed')).toBe('true');
  });

  it('removes a favourite from the Favorites tab at once', async () => {
    const mug = marketCardFixture();
    let saved = [mug];
    const fetchMock = asUser({
      [`${USER}/favorites`]: () => ok(offeringPage(saved)),
      [`${USER}/favorites/${mug.id}`]: () => {
        saved = [];
        return ok({ offeringId: mug.id, favorite: false });
      },
    });
    renderRoute('/market/preview/favorites');
    const article = await card('Stoneware mug');
    await userEvent.click(within(article).getByRole('button', { name: 'Remove from favourites' }));
    expect(await screen.findByText('No favourites yet')).toBeTruthy();
    const [, init] = callsTo(fetchMock, `/favorites/${mug.id}`)[0] ?? [];
    expect(init?.method).toBe('DELETE');
  });

  it('puts a favourite back in the Favorites tab when removing fails', async () => {
    const mug = marketCardFixture();
    const answer = deferred<Response>();
    asUser({
      [`${USER}/favorites`]: () => ok(offeringPage([mug])),
      [`${USER}/favorites/${mug.id}`]: () => answer.promise,
    });
    renderRoute('/market/preview/favorites');
    const article = await card('Stoneware mug');
    await userEvent.click(within(article).getByRole('button', { name: 'Remove from favourites' }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Stoneware mug' })).toBeNull(),
    );
    await act(async () => answer.resolve(fail('unexpected', 500)));
    expect(await card('Stoneware mug')).toBeTruthy();
    expect(await screen.findByText('Unexpected Error')).toBeTruthy();
  });

  it('asks an unverified company to verify instead of saving', async () => {
    const mug = marketCardFixture();
    const fetchMock = asUser(
      { [`${USER}/offering/getofferings`]: offerings([mug]) },
      ownProfileFixture({
        user_option: 'company',
        is_verified: false,
        onboarding_status: 'complete',
      }),
    );
    renderRoute(MARKET);
    const article = await card('Stoneware mug');
    await waitFor(() => expect(callsTo(fetchMock, '/user-profile').length).toBeGreaterThan(0));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    const heart = within(article).getByRole('button', { name: 'Add to favourites' });
    await waitFor(() => expect((heart as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(heart);
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(callsTo(fetchMock, `/favorites/${mug.id}`)).toHaveLength(0);
  });
});

describe('my offerings, my bids', () => {
  it('filters my offerings by status in the body and the address', async () => {
    const fetchMock = asUser({
      [`${USER}/offering/getmyofferings`]: () => ok(offeringPage([marketCardFixture()])),
    });
    const { router } = renderRoute('/market/preview/myofferings?status=closed');
    await card('Stoneware mug');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'sold');
    await waitFor(() =>
      expect(bodiesTo(fetchMock, `${USER}/offering/getmyofferings`)).toEqual([
        { status: 'closed' },
        { status: 'sold' },
      ]),
    );
    expect(router.state.location.search).toBe('?status=sold');
    expect(
      Array.from((screen.getByLabelText('Status') as HTMLSelectElement).options).map(
        (option) => option.textContent,
      ),
    ).toEqual(['Any', 'Active', 'Sold', 'Closed']);
  });

  it('says when the user has no offerings', async () => {
    asUser({ [`${USER}/offering/getmyofferings`]: () => ok(offeringPage([])) });
    renderRoute('/market/preview/myofferings');
    expect(await screen.findByText('You have no offerings yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my items' }).getAttribute('href')).toBe(
      '/account/wallet/mytokens',
    );
  });

  it('sends a user whose seller onboarding is not complete back to the market', async () => {
    asUser(
      { [`${USER}/offering/getofferings`]: offerings([marketCardFixture()]) },
      ownProfileFixture({ onboarding_status: null }),
    );
    const { router } = renderRoute('/market/preview/myofferings');
    await waitFor(() => expect(router.state.location.pathname).toBe(MARKET));
    await card('Stoneware mug');
    expect(screen.queryByRole('tab', { name: 'My Offerings' })).toBeNull();
  });

  it('filters My Bids by status in the body and the address', async () => {
    const fetchMock = asUser({
      [`${USER}/offering/getmybettedofferings`]: () => ok({ items: [], nextCursor: null }),
    });
    const { router } = renderRoute('/market/preview/mybids');
    expect(await screen.findByText('Your bids will appear here')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse auctions' }).getAttribute('href')).toBe(
      '/market/preview/marketplace?offer=auction',
    );
    const status = screen.getByLabelText('Status') as HTMLSelectElement;
    expect(Array.from(status.options).map((option) => option.textContent)).toEqual([
      'Any',
      'Active',
      'Closed',
    ]);
    await userEvent.selectOptions(status, 'active');
    expect(router.state.location.search).toBe('?status=active');
    expect(await screen.findByText('None of your bids has this status')).toBeTruthy();
    expect(bodiesTo(fetchMock, `${USER}/offering/getmybettedofferings`)).toEqual([
      { status: 'any', last: null },
      { status: 'active', last: null },
    ]);
  });

  it('shows a bid leading a lot whose reserve is not met as leading, not winning', async () => {
    asUser({
      [`${USER}/offering/getmybettedofferings`]: () =>
        ok({ items: [myBidsItemFixture({ reserve: 'not_met' })], nextCursor: null }),
    });
    renderRoute('/market/preview/mybids');
    const list = await screen.findByRole('list', { name: 'Your bids' });
    const [row] = within(list).getAllByRole('article');
    expect(within(row as HTMLElement).getByText('Leading')).toBeTruthy();
    expect(within(row as HTMLElement).queryByText('Winning')).toBeNull();
  });

  it('lists my bids with their status, my bid, the current price and the time left', async () => {
    vi.useFakeTimers({ now: MARKET_NOW, shouldAdvanceTime: true });
    const won = myBidsItemFixture({
      phase: 'closed',
      end_at: '2026-03-03T18:00:00.000Z',
      highestBid: 2400,
      bid: myBidFixture({
        status: 'winner',
        amount: 2400,
        max: 3000,
        price: 2400,
        quantity: 2,
        copies: 2,
        can_cancel: false,
        order_id: 'oR01JF0000000000000000000001',
        pay_by: '2026-03-05T18:00:00.000Z',
      }),
    });
    const wonOffering = { ...won.offering, id: 'oF01JDQCTZPTP0NX1EBB5GWON001' };
    asUser({
      [`${USER}/offering/getmybettedofferings`]: () =>
        ok({
          items: [
            myBidsItemFixture(),
            myBidsItemFixture({
              offering: { ...myBidsItemFixture().offering, id: 'oF01JDQCTZPTP0NX1EBB5GOUT001' },
              bid: myBidFixture({ status: 'outbid', copies: 0, price: 0, amount: 1500, max: 1500 }),
              phase: 'closing',
            }),
            {
              ...won,
              offering: { ...wonOffering, item: { ...wonOffering.item, title: 'Gold record' } },
            },
          ],
          nextCursor: null,
        }),
    });
    renderRoute('/market/preview/mybids');
    const list = await screen.findByRole('list', { name: 'Your bids' });
    const [winning, outbid, winner] = within(list).getAllByRole('article');
    /** A figure of a row: its value and note, as read. */
    const figure = (row: HTMLElement | undefined, term: string) =>
      within(row as HTMLElement).getByText(term, { selector: 'dt' }).nextElementSibling
        ?.textContent;
    expect(within(winning as HTMLElement).getByText('Winning')).toBeTruthy();
    expect(figure(winning, 'Your bid')).toBe('$15,50per copy');
    expect(figure(winning, 'Your maximum')).toBe('$20,00per copy');
    expect(figure(winning, 'Current price')).toBe('$15,50');
    expect(figure(winning, 'Auction')).toBe('Ends in 2d 4h');
    expect(
      within(winning as HTMLElement)
        .getByRole('link', { name: 'Test pressing' })
        .getAttribute('href'),
    ).toMatch(/^\/market\/product\/.+\?offering=/);
    expect(within(outbid as HTMLElement).getByText('Outbid')).toBeTruthy();
    expect(within(outbid as HTMLElement).getByText('Processing winners')).toBeTruthy();
    expect(within(winner as HTMLElement).getByText('Won')).toBeTruthy();
    expect(figure(winner, 'Your bid')).toBe('$24,00per copy · 2 copies · 2 of 2 won');
    expect(figure(winner, 'Auction')).toMatch(/^Ended \d\d\/03\/2026/);
    expect(
      within(winner as HTMLElement)
        .getByRole('link', { name: 'Go to your order' })
        .getAttribute('href'),
    ).toBe('/account/orders/oR01JF0000000000000000000001');
    expect(within(winner as HTMLElement).getByText(/^Pay by /)).toBeTruthy();
  });

  it('loads more of my bids with the cursor, and says when they cannot be loaded', async () => {
    let failing = true;
    const fetchMock = asUser({
      [`${USER}/offering/getmybettedofferings`]: (_url, init) => {
        if (failing) return fail('market.bid.errors.load', 503);
        return bodyOf(init).last === 'c1'
          ? ok({
              items: [
                myBidsItemFixture({
                  offering: {
                    ...myBidsItemFixture().offering,
                    id: 'oF01JDQCTZPTP0NX1EBB5GNEXT01',
                    item: { ...myBidsItemFixture().offering.item, title: 'Second pressing' },
                  },
                }),
              ],
              nextCursor: null,
            })
          : ok({ items: [myBidsItemFixture()], nextCursor: 'c1' });
      },
    });
    renderRoute('/market/preview/mybids');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error get bids')).toBeTruthy();
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Your bids' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Second pressing' })).toBeTruthy();
    expect(bodiesTo(fetchMock, `${USER}/offering/getmybettedofferings`).at(-1)).toEqual({
      status: 'any',
      last: 'c1',
    });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when the user has no collections', async () => {
    asUser({ [`${USER}/offering/getmyownercollections`]: () => ok({ items: [] }) });
    renderRoute('/market/preview/collections');
    expect(await screen.findByText('You have no collections yet')).toBeTruthy();
  });
});

describe('collection page', () => {
  it("lists the collection's offerings under its items", async () => {
    const fetchMock = asGuest({
      [`${GUEST}/token/getcollection/${COLLECTION_ID}`]: () =>
        ok({ collection: collectionFixture(), items: [], nextCursor: null }),
      [`${GUEST}/offering/getofferings`]: offerings([marketCardFixture()]),
    });
    renderRoute(`/market/collection/${COLLECTION_ID}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Tidewater editions' }),
    ).toBeTruthy();
    const section = await screen.findByRole('region', { name: 'On sale in this collection' });
    expect(await within(section).findByRole('article', { name: 'Stoneware mug' })).toBeTruthy();
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([
      { collectionid: COLLECTION_ID, limit: 50 },
    ]);
  });
});

describe('home page', () => {
  it('shows the newest 10 offerings with a link to the market', async () => {
    const fetchMock = asGuest({
      '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
      [`${GUEST}/offering/getofferings`]: offerings(marketCards(2)),
    });
    renderRoute('/');
    const section = await screen.findByRole('region', { name: 'New in the market' });
    expect(await within(section).findByRole('article', { name: 'Edition 2' })).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'See the market' }).getAttribute('href')).toBe(
      MARKET,
    );
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([{ limit: 10 }]);
  });
});

describe('user card carousel', () => {
  const lumen = publicProfileFixture({
    id: 'user-2',
    nick: 'lumen',
    name: 'Lumen',
    surname: 'Records',
    is_seller: true,
  });

  it("pages the user's past offerings three at a time and opens one", async () => {
    const past = marketCards(7);
    const fetchMock = asGuest({
      '/api/users/get-by-nickname/lumen': () => ok(lumen),
      [`${GUEST}/offering/getofferings`]: offerings(past),
    });
    const { router } = renderRoute('/legal/terms');
    await screen.findByRole('heading', { level: 1, name: 'Legal Terms' });
    act(() => userCard.open('lumen'));
    const dialog = await screen.findByRole('dialog');
    const list = await within(dialog).findByRole('list', { name: 'Past offerings of @lumen' });
    const titles = () =>
      within(list)
        .getAllByRole('article')
        .map((node) => within(node).getByRole('link').textContent);
    expect(titles()).toEqual(['Edition 1', 'Edition 2', 'Edition 3']);
    expect(within(dialog).getByText('1 of 3')).toBeTruthy();
    const previous = within(dialog).getByRole('button', { name: 'Previous offerings' });
    const next = within(dialog).getByRole('button', { name: 'Next offerings' });
    expect((previous as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(next);
    expect(titles()).toEqual(['Edition 4', 'Edition 5', 'Edition 6']);
    expect(within(dialog).getByText('2 of 3')).toBeTruthy();
    await userEvent.click(next);
    expect(titles()).toEqual(['Edition 7']);
    expect((next as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(previous);
    expect(titles()).toEqual(['Edition 4', 'Edition 5', 'Edition 6']);
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([
      { ownernick: 'lumen', status: 'closed', limit: 10 },
    ]);

    await userEvent.click(within(list).getByRole('link', { name: 'Edition 5' }));
    const edition = past[4] as OfferingCard;
    expect(router.state.location.pathname).toBe(`/market/product/${edition.item.id}`);
    expect(router.state.location.search).toBe(`?offering=${edition.id}`);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('reads the next ten when the pages run out', async () => {
    const past = marketCards(12);
    const fetchMock = asGuest({
      '/api/users/get-by-nickname/lumen': () => ok(lumen),
      [`${GUEST}/offering/getofferings`]: (_url, init) =>
        bodyOf(init).last === 'more'
          ? ok(offeringPage(past.slice(10)))
          : ok(offeringPage(past.slice(0, 10), 'more')),
    });
    renderRoute('/legal/terms');
    await screen.findByRole('heading', { level: 1, name: 'Legal Terms' });
    act(() => userCard.open('lumen'));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('1 of 4');
    const next = within(dialog).getByRole('button', { name: 'Next offerings' });
    for (let page = 0; page < 3; page += 1) await userEvent.click(next);
    // Reaching the last page read so far reads the next ten: the page fills up.
    expect(await within(dialog).findByText('4 of 4')).toBeTruthy();
    expect(await within(dialog).findByRole('link', { name: 'Edition 12' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Edition 10' })).toBeTruthy();
    expect((next as HTMLButtonElement).disabled).toBe(true);
    expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toEqual([
      { ownernick: 'lumen', status: 'closed', limit: 10 },
      { ownernick: 'lumen', status: 'closed', limit: 10, last: 'more' },
    ]);
  });

  it('is absent when the user has no past offerings', async () => {
    const fetchMock = asGuest({
      '/api/users/get-by-nickname/lumen': () => ok(lumen),
      [`${GUEST}/offering/getofferings`]: offerings([]),
    });
    renderRoute('/legal/terms');
    await screen.findByRole('heading', { level: 1, name: 'Legal Terms' });
    act(() => userCard.open('lumen'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(bodiesTo(fetchMock, `${GUEST}/offering/getofferings`)).toHaveLength(1),
    );
    await within(dialog).findByRole('link', { name: 'See Profile' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(within(dialog).queryByText('Past offerings')).toBeNull();
    expect(within(dialog).queryByRole('status')).toBeNull();
  });
});
