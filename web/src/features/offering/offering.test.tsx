import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OfferingCard, OfferingDetail } from '@shared/schemas/offerings';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import {
  auctionCardFixture,
  auctionDetailFixture,
  ITEM_ID,
  OFFERING_IDS,
  offeringCardFixture,
  offeringDetailFixture,
  offeringItemFixture,
} from '../../test/offeringFixtures';
import { auctionViewFixture } from '../../test/bidFixtures';
import { FakeSocket } from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';

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

const PAGE = `/market/product/${ITEM_ID}`;
const GUEST = '/api/users/-';
const USER = '/api/users/user-1';

type Handlers = Parameters<typeof mockApi>[0];

/** The calls of the item page for a guest: the item, its offerings and their details. */
function asGuest(cards: OfferingCard[], details: OfferingDetail[], extra: Handlers = {}) {
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${GUEST}/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture()),
    [`${GUEST}/offering/getofferings`]: () => ok({ items: cards, nextCursor: null }),
    ...Object.fromEntries(
      details.map((detail) => [`${GUEST}/offering/getofferingbyid/${detail.id}`, () => ok(detail)]),
    ),
    ...extra,
  });
}

/** The same for the signed-in user-1 (@ana), onboarded as a seller. */
function asUser(
  cards: OfferingCard[],
  details: OfferingDetail[],
  extra: Handlers = {},
  config: unknown = configWithAuthFixture(),
) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  return mockApi({
    '/api/config': () => ok(config),
    [`${USER}/user-profile`]: () => ok(ownProfileFixture({ onboarding_status: 'complete' })),
    [`${USER}/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture()),
    [`${USER}/offering/getofferings`]: () => ok({ items: cards, nextCursor: null }),
    ...Object.fromEntries(
      details.map((detail) => [`${USER}/offering/getofferingbyid/${detail.id}`, () => ok(detail)]),
    ),
    ...extra,
  });
}

/** The seller's own offering (user-1 is @ana). */
const mine = (overrides: Partial<OfferingDetail> = {}, card: Partial<OfferingCard> = {}) =>
  offeringDetailFixture(
    { is_seller: true, can_delist: true, ...overrides },
    { seller: { id: 'user-1', nick: 'ana' }, ...card },
  );

/** The permission guard decides on the own profile (onboarding): wait until it is in. */
async function profileLoaded(fetchMock: ReturnType<typeof mockApi>) {
  await waitFor(() => expect(callsTo(fetchMock, '/user-profile').length).toBeGreaterThan(0));
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

async function offeringPanel(name: RegExp | string) {
  return screen.findByRole('article', { name });
}

const callsTo = (fetchMock: ReturnType<typeof mockApi>, part: string) =>
  fetchMock.mock.calls.filter(([input]) => String(input).includes(part));

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

describe('item page offerings', () => {
  it('shows a fixed-price offering with its price, copies, seller, payment and terms', async () => {
    const card = offeringCardFixture();
    const fetchMock = asGuest([card], [offeringDetailFixture()]);
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Stoneware mug' })).toBeTruthy();
    const panel = await offeringPanel('Offering by @lumen');
    expect(within(panel).getByText('Buy Now')).toBeTruthy();
    expect(within(panel).getByText('Price')).toBeTruthy();
    expect(within(panel).getByText('$12,50')).toBeTruthy();
    expect(within(panel).getByText('3 of 5')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: '@lumen' }).getAttribute('href')).toBe('/lumen');
    expect(within(panel).getByText('Art')).toBeTruthy();
    expect(within(panel).getByText('Collectibles')).toBeTruthy();
    expect(within(panel).getByText(/\d+ d \d+ h/)).toBeTruthy();
    // The detail arrives after the card.
    expect(await within(panel).findByText('Full price at purchase')).toBeTruthy();
    expect(within(panel).getByText('Ships within two days.')).toBeTruthy();
    expect(within(panel).getByText('Returns within 14 days.')).toBeTruthy();
    expect(within(panel).queryByText('Minimum bid')).toBeNull();
    // A fixed-price sale on sale can be bought (the checkout's tests follow it); bids come later.
    expect(within(panel).getByRole('button', { name: 'Buy now' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /bid/i })).toBeNull();
    expect(screen.queryByRole('link', { name: /bid/i })).toBeNull();
    // The item's offerings, 10 at a time.
    const body = JSON.parse(String(callsTo(fetchMock, 'getofferings')[0]?.[1]?.body)) as unknown;
    expect(body).toEqual({ item_id: ITEM_ID, limit: 10 });
  });

  it('shows an auction with its current price, minimum next bid, deposit and copies per bidder', async () => {
    asGuest([auctionCardFixture()], [auctionDetailFixture()], {
      [`${GUEST}/bid/getbyofferingid/${OFFERING_IDS.auction}`]: () => ok(auctionViewFixture()),
    });
    renderRoute(PAGE);
    const panel = await offeringPanel('Offering by @lumen');
    expect(within(panel).getByText('Auction')).toBeTruthy();
    expect(within(panel).getByText('Auction open')).toBeTruthy();
    expect(within(panel).getByText('Current price')).toBeTruthy();
    expect(within(panel).getByText('$15,00')).toBeTruthy();
    expect(within(panel).queryByText('Price')).toBeNull();
    // An auction charges at its end, not at a purchase.
    expect(
      await within(panel).findByText(
        'Deposit of $2,00 per copy when the auction ends, the rest when the seller is ready',
      ),
    ).toBeTruthy();
    expect(within(panel).getByText('One copy per bidder')).toBeTruthy();
    // The lot: the minimum next bid, the bidders, the reserve.
    expect(await within(panel).findByText('$15,50')).toBeTruthy();
    expect(within(panel).getByText('Minimum next bid')).toBeTruthy();
    expect(within(panel).getByText('Starting bid $10,00')).toBeTruthy();
    expect(within(panel).getByText('1 bidder')).toBeTruthy();
    expect(within(panel).getByText('Reserve not met')).toBeTruthy();
    // A guest sees everything but the form: Log in to bid; no Buy now on an auction.
    expect(within(panel).getByRole('button', { name: 'Log in to bid' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /buy/i })).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('shows the linked offering first, and says so inside the page when it is not available', async () => {
    asGuest([offeringCardFixture()], [offeringDetailFixture()], {
      [`${GUEST}/offering/getofferingbyid/${OFFERING_IDS.private}`]: () =>
        fail('market.offering.errors.not_found', 404),
    });
    renderRoute(`${PAGE}?offering=${OFFERING_IDS.private}`);
    expect(await screen.findByText('This offering is not available')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Stoneware mug' })).toBeTruthy();
    expect(await offeringPanel('Offering by @lumen')).toBeTruthy();
  });

  it('puts the linked offering before the others', async () => {
    const other = offeringCardFixture({
      id: OFFERING_IDS.other,
      seller: { id: 'u9', nick: 'zoe' },
    });
    asGuest(
      [other, offeringCardFixture()],
      [offeringDetailFixture(), offeringDetailFixture({}, other)],
    );
    renderRoute(`${PAGE}?offering=${OFFERING_IDS.fixed}`);
    await offeringPanel('Offering by @zoe');
    const section = screen.getByRole('region', { name: 'Offerings' });
    const headings = within(section).getAllByRole('heading', { level: 3 });
    expect(headings.map((heading) => heading.textContent)).toEqual([
      'Offering by @lumen',
      'Offering by @zoe',
    ]);
  });

  it('says when no offering of the item is on sale', async () => {
    asGuest([], []);
    renderRoute(PAGE);
    expect(await screen.findByText('No copies of this item are on sale right now.')).toBeTruthy();
  });

  it('sends a guest who taps the heart to the login modal', async () => {
    const fetchMock = asGuest([offeringCardFixture()], [offeringDetailFixture()]);
    renderRoute(PAGE);
    const panel = await offeringPanel('Offering by @lumen');
    await userEvent.click(await within(panel).findByRole('button', { name: 'Add to favourites' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
    expect(callsTo(fetchMock, '/favorites/')).toHaveLength(0);
  });

  it('adds a favourite for a signed-in user', async () => {
    const fetchMock = asUser([offeringCardFixture()], [offeringDetailFixture()], {
      [`${USER}/favorites/${OFFERING_IDS.fixed}`]: () =>
        ok({ offeringId: OFFERING_IDS.fixed, favorite: true }),
    });
    renderRoute(PAGE);
    const panel = await offeringPanel('Offering by @lumen');
    await userEvent.click(await within(panel).findByRole('button', { name: 'Add to favourites' }));
    expect(
      await within(panel).findByRole('button', { name: 'Remove from favourites' }),
    ).toBeTruthy();
    expect(callsTo(fetchMock, '/favorites/')[0]?.[1]?.method).toBe('PUT');
  });

  it('sets the share metadata from the item, the description cut at 150 characters', async () => {
    const description = `${'Hand-thrown stoneware mug, glazed by hand. '.repeat(8)}The end.`;
    mockApi({
      '/api/config': () => ok(configFixture()),
      [`${GUEST}/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture({ description })),
      [`${GUEST}/offering/getofferings`]: () => ok({ items: [], nextCursor: null }),
    });
    renderRoute(PAGE);
    await screen.findByRole('heading', { level: 1, name: 'Stoneware mug' });
    const described = () =>
      document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
    // (The head outlives a test: wait for this page's own description.)
    await waitFor(() => expect(described()).toMatch(/^Hand-thrown stoneware mug/));
    expect(description.length).toBeGreaterThan(150);
    expect(described().length).toBeLessThanOrEqual(150);
    const image = document.head.querySelector('meta[property="og:image"]')?.getAttribute('content');
    expect(image).toMatch(/\/media\/mug-t\.webp$/);
    expect(
      document.head.querySelector('meta[property="og:image:width"]')?.getAttribute('content'),
    ).toBe('400');
  });
});

describe('owner actions', () => {
  it('offers List to an owner holding a free copy, and not to a guest', async () => {
    const item = offeringItemFixture({
      copies_page: {
        items: [
          {
            nftuniqueid: `${ITEM_ID}#2`,
            index: 2,
            owner_id: 'user-1',
            owner_nick: 'ana',
            owner_since: '2026-01-02T00:00:00.000Z',
            status: 'available',
          },
        ],
        nextCursor: null,
      },
    });
    asUser([], [], { [`${USER}/token/getproductbyid/${ITEM_ID}`]: () => ok(item) });
    renderRoute(PAGE);
    const list = await screen.findByRole('link', { name: 'List' });
    expect(list.getAttribute('href')).toBe(`/my-tokens/list-form/${ITEM_ID}`);
  });

  it('shows no List button to a guest', async () => {
    asGuest([], []);
    renderRoute(PAGE);
    await screen.findByText('No copies of this item are on sale right now.');
    expect(screen.queryByRole('link', { name: 'List' })).toBeNull();
  });

  it('delists: the modal, the call, then delisting and the live result', async () => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    let current = mine();
    const fetchMock = asUser(
      [offeringCardFixture({ seller: { id: 'user-1', nick: 'ana' } })],
      [],
      {
        [`${USER}/offering/getofferingbyid/${OFFERING_IDS.fixed}`]: () => ok(current),
        [`${USER}/offering/delist/${OFFERING_IDS.fixed}`]: () => {
          current = mine(
            { can_delist: false },
            { status: 'delisting', display_status: 'delisting' },
          );
          return ok(current);
        },
      },
      { ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' },
    );
    renderRoute(PAGE);
    const panel = await offeringPanel('Your offering');
    // The seller sees no heart on their own offering.
    expect(within(panel).queryByRole('button', { name: 'Add to favourites' })).toBeNull();
    await profileLoaded(fetchMock);
    await userEvent.click(await within(panel).findByRole('button', { name: 'Delist' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delist this offering?' });
    expect(within(dialog).getByText('Its 3 copies return to your items.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delist' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, '/offering/delist/')[0]?.[1]?.method).toBe('POST');
    expect(await within(panel).findByText('Delisting')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Delist' })).toBeNull();

    // The copies are back: the live channel says so and the page reads the offering again.
    current = mine(
      { can_delist: false },
      { status: 'delisted', display_status: 'available', copies_left: 3 },
    );
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    act(() =>
      FakeSocket.broadcast({
        type: 'offering.updated',
        id: 'm-1',
        offeringId: OFFERING_IDS.fixed,
        status: 'delisted',
      }),
    );
    expect(await within(panel).findByText('Delisted')).toBeTruthy();
  });

  it("reads the seller's offering again when the socket first opens, and a buyer's only on a reconnect", async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.all = [];
    let current = mine({ can_delist: false }, { status: 'delisting', display_status: 'delisting' });
    const theirs = offeringDetailFixture(
      {},
      { id: OFFERING_IDS.auction, seller: { id: 'user-2', nick: 'bo' } },
    );
    const fetchMock = asUser(
      [offeringCardFixture({ seller: { id: 'user-1', nick: 'ana' } }), theirs],
      [],
      {
        [`${USER}/offering/getofferingbyid/${OFFERING_IDS.fixed}`]: () => ok(current),
        [`${USER}/offering/getofferingbyid/${OFFERING_IDS.auction}`]: () => ok(theirs),
      },
      { ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' },
    );
    renderRoute(PAGE);
    const panel = await offeringPanel('Your offering');
    expect(await within(panel).findByText('Delisting')).toBeTruthy();
    await waitFor(() =>
      expect(callsTo(fetchMock, `/getofferingbyid/${OFFERING_IDS.auction}`).length).toBe(1),
    );
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    const mineReads = callsTo(fetchMock, `/getofferingbyid/${OFFERING_IDS.fixed}`).length;
    // The copies came back before the socket was there: its event reached no one.
    current = mine(
      { can_delist: false },
      { status: 'delisted', display_status: 'available', copies_left: 3 },
    );
    act(() => (FakeSocket.all[0] as FakeSocket).open());
    expect(await within(panel).findByText('Delisted')).toBeTruthy();
    expect(callsTo(fetchMock, `/getofferingbyid/${OFFERING_IDS.fixed}`).length).toBe(mineReads + 1);
    // Another seller's offering hears nothing here: not read again for the opening.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo(fetchMock, `/getofferingbyid/${OFFERING_IDS.auction}`).length).toBe(1);
    // After a reconnect, anything may have changed while the socket was closed: both are read.
    act(() => FakeSocket.all[0]?.onclose?.());
    await waitFor(() => expect(FakeSocket.all.length).toBe(2), { timeout: 3_000 });
    act(() => (FakeSocket.all[1] as FakeSocket).open());
    await waitFor(() =>
      expect(callsTo(fetchMock, `/getofferingbyid/${OFFERING_IDS.auction}`).length).toBe(2),
    );
  });

  it("shows a refused delist's error text", async () => {
    const fetchMock = asUser(
      [offeringCardFixture({ seller: { id: 'user-1', nick: 'ana' } })],
      [mine()],
      {
        [`${USER}/offering/delist/${OFFERING_IDS.fixed}`]: () =>
          fail('market.offering.errors.has_bids', 409),
      },
    );
    renderRoute(PAGE);
    const panel = await offeringPanel('Your offering');
    await profileLoaded(fetchMock);
    await userEvent.click(await within(panel).findByRole('button', { name: 'Delist' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delist this offering?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delist' }));
    expect(
      await within(dialog).findByText('This auction has bids and can no longer be delisted.'),
    ).toBeTruthy();
  });

  it('shows the seller a refused offering with its reason and one waiting for support', async () => {
    const refused = mine(
      { can_delist: false, reason: 'The photos do not show the item.' },
      { status: 'not_validated', display_status: 'not_validated' },
    );
    asUser([], [refused]);
    renderRoute(`${PAGE}?offering=${OFFERING_IDS.fixed}`);
    const panel = await offeringPanel('Your offering');
    expect(within(panel).getByText('Not validated')).toBeTruthy();
    expect(await within(panel).findByText('Reason: The photos do not show the item.')).toBeTruthy();
  });

  it('invites users to a private offering', async () => {
    const privateOffering = mine(
      { invited: [{ id: 'user-7', nick: 'carla' }] },
      { id: OFFERING_IDS.private, access: 'private' },
    );
    let sent: unknown = null;
    asUser([], [privateOffering], {
      [`${USER}/offering/add-invitations/${OFFERING_IDS.private}`]: (_url, init) => {
        sent = JSON.parse(String(init?.body));
        return ok({
          invited: [
            { id: 'user-7', nick: 'carla' },
            { id: 'user-8', nick: 'bruno' },
            { id: 'user-9', nick: 'dani' },
          ],
        });
      },
    });
    renderRoute(`${PAGE}?offering=${OFFERING_IDS.private}`);
    const panel = await offeringPanel('Your offering');
    expect(within(panel).getByText('Private')).toBeTruthy();
    await userEvent.click(await within(panel).findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite users' });
    const field = within(dialog).getByRole('textbox', { name: 'Username' });
    await userEvent.type(field, 'Bruno{Enter}');
    await userEvent.type(field, 'carla{Enter}');
    expect(within(dialog).getByText('@carla is already on the list.')).toBeTruthy();
    await userEvent.clear(field);
    await userEvent.type(field, 'x!{Enter}');
    expect(within(dialog).getByText('Use 3 to 64 lowercase letters or digits.')).toBeTruthy();
    await userEvent.clear(field);
    await userEvent.type(field, 'dani{Enter}');
    const chosen = within(dialog).getByRole('list', { name: 'Users to invite' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['@bruno', '@dani']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual({ invitedIds: ['bruno', 'dani'] });
    const invited = within(panel).getByRole('list', { name: 'Invited' });
    expect(within(invited).getByText('@bruno')).toBeTruthy();
    expect(within(invited).getByText('@dani')).toBeTruthy();
  });

  it('shows a refused invitation error', async () => {
    const privateOffering = mine({}, { id: OFFERING_IDS.private, access: 'private' });
    asUser([], [privateOffering], {
      [`${USER}/offering/add-invitations/${OFFERING_IDS.private}`]: () =>
        fail('users.errors.not_found', 404),
    });
    renderRoute(`${PAGE}?offering=${OFFERING_IDS.private}`);
    const panel = await offeringPanel('Your offering');
    await userEvent.click(await within(panel).findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite users' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Username' }), 'ghost');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect(await within(dialog).findByText('This user could not be found.')).toBeTruthy();
  });
});
