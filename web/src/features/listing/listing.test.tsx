import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TIMINGS } from '@shared/constants/limits';
import type { ListingContract } from '@shared/schemas/offerings';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import {
  LISTING_COLLECTION_ID,
  LISTING_ITEM_ID,
  LISTING_OFFERING_ID,
  listingCollectionFixture,
  listingContextFixture,
  listingProgressFixture,
} from '../../test/listingFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';
import { toLocalInput } from './form';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown, status = 200) => jsonResponse({ data }, status);
const fail = (code: string, status = 500, fields?: Record<string, string>) =>
  jsonResponse(
    { error: { code, message: code, requestId: 't', ...(fields ? { fields } : {}) } },
    status,
  );

const USER = '/api/users/user-1';
const PAGE = `/my-tokens/list-form/${LISTING_ITEM_ID}`;
const CREATE = `${USER}/offering/create`;
const STATUS = `${USER}/offering/create/status`;

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

afterEach(() => {
  vi.useRealTimers();
});

type Handlers = Parameters<typeof mockApi>[0];

const onboardedProfile = () => ownProfileFixture({ onboarding_status: 'complete' });

function signedIn(extra: Handlers = {}, context = listingContextFixture()) {
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${USER}/user-profile`]: () => ok(onboardedProfile()),
    [`${USER}/offering/listing-context/${LISTING_ITEM_ID}`]: () => ok(context),
    [`${USER}/offering/getmyownercollections`]: () => ok({ items: [] }),
    [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }),
    ...extra,
  });
}

const form = () => screen.findByRole('form', { name: 'List item' });

const callsTo = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );

function bodyOf(call: unknown[] | undefined): Record<string, unknown> {
  const init = call?.[1] as RequestInit | undefined;
  return JSON.parse(String(init?.body)) as Record<string, unknown>;
}

function keyOf(call: unknown[] | undefined): string | undefined {
  const init = call?.[1] as RequestInit | undefined;
  return (init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'];
}

async function enter(element: HTMLElement, text: string) {
  await userEvent.click(element);
  await userEvent.paste(text);
}

/** A valid fixed-price listing: price 12.50, category Art, no terms. */
async function fillValidForm() {
  await form();
  await enter(screen.getByRole('textbox', { name: /^Price per copy/ }), '12.50');
  await userEvent.click(screen.getByRole('button', { name: 'Art' }));
  await userEvent.click(screen.getByRole('checkbox', { name: 'No terms (None)' }));
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'List item' }));

describe('list form guards', () => {
  it('sends a guest to the login page', async () => {
    mockApi({ '/api/config': () => ok(configFixture()) });
    const { router } = renderRoute(PAGE);
    await waitFor(() => expect(router.state.location.pathname).toBe('/session/login'));
  });

  it('sends a seller whose onboarding is not complete to my tokens', async () => {
    signedIn({}, listingContextFixture({ onboarded: false }));
    const { router } = renderRoute(PAGE);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/mytokens'));
  });

  it('shows an item the user holds no copy of as unavailable, with a way back', async () => {
    signedIn({
      [`${USER}/offering/listing-context/${LISTING_ITEM_ID}`]: () =>
        fail('market.list.errors.not_owner', 403),
    });
    renderRoute(PAGE);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This item cannot be listed')).toBeTruthy();
    expect(
      within(alert).getByRole('link', { name: 'Back to my tokens' }).getAttribute('href'),
    ).toBe('/account/wallet/mytokens');
  });
});

describe('list form', () => {
  it('shows the item and its free copies, and the auction fields only for auctions', async () => {
    signedIn();
    renderRoute(PAGE);
    await form();
    const item = screen.getByRole('region', { name: 'Item to list' });
    expect(within(item).getByRole('heading', { name: 'Stoneware mug' })).toBeTruthy();
    expect(within(item).getByText('Physical')).toBeTruthy();
    expect(screen.getByText('of 3 free')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /^Price per copy/ })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Allow buy now' })).toBeNull();
    expect(screen.queryByRole('switch', { name: /several copies/ })).toBeNull();

    await userEvent.click(screen.getByRole('radio', { name: 'Auction' }));
    expect(screen.getByRole('textbox', { name: /^Minimum bid per copy/ })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Price per copy/ })).toBeNull();
    const multi = screen.getByRole('switch', { name: /several copies/ });
    expect(multi).toHaveProperty('checked', false);
    expect(screen.getByText('Off: one copy per bidder.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Buy-now price/ })).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: 'Allow buy now' }));
    expect(screen.getByRole('textbox', { name: /^Buy-now price/ })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Reserve price/ })).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: 'Set a reserve price' }));
    expect(screen.getByRole('textbox', { name: /^Reserve price per copy/ })).toBeTruthy();
    // A deposit auction: winners pay the deposit at the end, the rest when the order is ready.
    await userEvent.click(screen.getByRole('radio', { name: 'Deposit' }));
    expect(
      screen.getByText(
        'Less than the minimum bid. Winners pay it when the auction ends, and the rest of their price when you mark the order ready.',
      ),
    ).toBeTruthy();

    await userEvent.click(screen.getByRole('radio', { name: 'Fixed price' }));
    expect(screen.getByText('Less than the price per copy.')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Allow buy now' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Set a reserve price' })).toBeNull();
  });

  it('lists an auction with a reserve price above the minimum bid, in minor units', async () => {
    const fetchMock = signedIn({ [CREATE]: () => ok(listingProgressFixture(), 202) });
    renderRoute(PAGE);
    await form();
    await userEvent.click(screen.getByRole('radio', { name: 'Auction' }));
    await enter(screen.getByRole('textbox', { name: /^Minimum bid per copy/ }), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Art' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'No terms (None)' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Set a reserve price' }));
    const reserve = screen.getByRole('textbox', { name: /^Reserve price per copy/ });
    await enter(reserve, '8');
    await submit();
    expect(
      await screen.findByText('The reserve price must be above the minimum bid.'),
    ).toBeTruthy();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
    await userEvent.clear(reserve);
    await enter(reserve, '25,50');
    expect(screen.getByText('$25,50 per copy')).toBeTruthy();
    await submit();
    await screen.findByRole('dialog', { name: 'Listing your item' });
    const { offering } = bodyOf(callsTo(fetchMock, CREATE)[0]) as { offering: ListingContract };
    expect(offering).toMatchObject({
      type: 'auction',
      price: 1000,
      reserve_price: 2550,
      buy_price: null,
    });
  });

  it('shows a loading state, then the whole form on a phone', async () => {
    setViewportWidth(PHONE_WIDTH);
    const context = deferred<Response>();
    signedIn({ [`${USER}/offering/listing-context/${LISTING_ITEM_ID}`]: () => context.promise });
    renderRoute(PAGE);
    expect(await screen.findByRole('status', { name: 'Loading the list form' })).toBeTruthy();
    context.resolve(ok(listingContextFixture()));
    await form();
    for (const section of ['Sale', 'Dates', 'Details', 'Access', 'Collection']) {
      expect(screen.getByRole('region', { name: section })).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'List item' })).toBeTruthy();
  });

  it('shows the ticket end-date rule for a ticket', async () => {
    signedIn(
      {},
      listingContextFixture({
        item: { product_type: 'ticket', ticket_expires_at: '2099-06-01T18:00:00.000Z' },
      }),
    );
    renderRoute(PAGE);
    await form();
    expect(screen.getByText(/A fixed-price sale must end at least 1 hour before/)).toBeTruthy();
  });

  it('lists at a fixed price in minor units, with an Idempotency-Key, and shows the progress', async () => {
    const fetchMock = signedIn({ [CREATE]: () => ok(listingProgressFixture(), 202) });
    renderRoute(PAGE);
    await fillValidForm();
    // The seller sees how the typed amount is read (spec format: decimal comma).
    expect(screen.getByText('$12,50 per copy')).toBeTruthy();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    expect(within(dialog).getByText('Getting ready')).toBeTruthy();
    expect(within(dialog).getByText('5%')).toBeTruthy();

    const [call] = callsTo(fetchMock, CREATE);
    expect(keyOf(call)).toBeTruthy();
    const { offering } = bodyOf(call) as { offering: ListingContract };
    expect(offering).toMatchObject({
      item_id: LISTING_ITEM_ID,
      type: 'fixed',
      copies: 1,
      currency: 'USD',
      price: 1250,
      payment_mode: 'fullprice',
      deposit: null,
      buy_price: null,
      reserve_price: null,
      multi_copy: false,
      categories: ['art'],
      terms: 'None',
      access: 'public',
      invited: [],
      collection_id: null,
    });
    expect(Number.isInteger(offering.price)).toBe(true);
    expect(offering.start_at).toMatch(/Z$/);
    const week = Date.parse(offering.end_at) - Date.parse(offering.start_at);
    expect(week).toBe(7 * 24 * 60 * 60 * 1000);
  });

  it('shows broken listing rules under their fields and sends nothing', async () => {
    const fetchMock = signedIn({ [CREATE]: () => ok(listingProgressFixture(), 202) });
    renderRoute(PAGE);
    await fillValidForm();
    const copies = screen.getByRole('spinbutton', { name: /^Copies/ });
    await userEvent.clear(copies);
    await userEvent.type(copies, '5');
    fireEvent.change(screen.getByLabelText(/^Ends/), {
      target: { value: toLocalInput(new Date(Date.now() + 30 * 60 * 1000)) },
    });
    await submit();
    expect(await screen.findByText('You do not have that many free copies.')).toBeTruthy();
    expect(screen.getByText('The end must be at least 1 hour from now.')).toBeTruthy();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });

  it('asks for a deposit below the price, in minor units', async () => {
    const fetchMock = signedIn({ [CREATE]: () => ok(listingProgressFixture(), 202) });
    renderRoute(PAGE);
    await fillValidForm();
    await userEvent.click(screen.getByRole('radio', { name: 'Deposit' }));
    const deposit = screen.getByRole('textbox', { name: /^Deposit per copy/ });
    await enter(deposit, '20');
    await submit();
    expect(
      await screen.findByText('The deposit must be more than 0 and less than the price.'),
    ).toBeTruthy();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
    await userEvent.clear(deposit);
    await enter(deposit, '2,50');
    await submit();
    await screen.findByRole('dialog', { name: 'Listing your item' });
    const { offering } = bodyOf(callsTo(fetchMock, CREATE)[0]) as { offering: ListingContract };
    expect(offering).toMatchObject({ payment_mode: 'deposit', deposit: 250, price: 1250 });
  });

  it("shows the server's field errors on the form", async () => {
    signedIn({
      [CREATE]: () =>
        fail('market.list.errors.required', 400, {
          'offering.price': 'market.list.validation.min_price',
        }),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    expect(await screen.findByText('The minimum price is 1 currency unit.')).toBeTruthy();
    expect(screen.getByText('Some required fields are missing or not valid.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('retries a failed submission with the same Idempotency-Key', async () => {
    let calls = 0;
    const fetchMock = signedIn({
      [CREATE]: () => {
        calls += 1;
        return calls === 1 ? fail('unavailable', 503) : ok(listingProgressFixture(), 202);
      },
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Getting ready')).toBeTruthy();
    const keys = callsTo(fetchMock, CREATE).map(keyOf);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('listing progress', () => {
  it('opens the confirm-listing modal and confirms the copies still available', async () => {
    const fetchMock = signedIn({
      [CREATE]: () => ok(listingProgressFixture({ step: 'confirm', done: 2, total: 3 }), 202),
      [`${USER}/offering/create/confirm`]: () =>
        ok(listingProgressFixture({ step: 'done', done: 2, total: 2, percent: 100 })),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const modal = await screen.findByRole('dialog', { name: 'Confirm listing' });
    expect(within(modal).getByText('Only 2 of 3 copies can still be listed.')).toBeTruthy();
    await userEvent.click(within(modal).getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('Your offering was submitted and is waiting for validation'),
    ).toBeTruthy();
    const [call] = callsTo(fetchMock, `${USER}/offering/create/confirm`);
    expect(bodyOf(call)).toEqual({ offeringId: LISTING_OFFERING_ID });
    expect(screen.getByRole('link', { name: 'View the offering' }).getAttribute('href')).toBe(
      `/market/product/${LISTING_ITEM_ID}`,
    );
    expect(screen.getByRole('link', { name: 'My Offerings' }).getAttribute('href')).toBe(
      '/market/preview/myofferings',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancels the listing from the confirm-listing modal', async () => {
    const fetchMock = signedIn({
      [CREATE]: () => ok(listingProgressFixture({ step: 'confirm', done: 1, total: 3 }), 202),
      [`${USER}/offering/create/cancel`]: () =>
        ok(listingProgressFixture({ step: 'cancelled', done: 1, total: 3, percent: 0 })),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const modal = await screen.findByRole('dialog', { name: 'Confirm listing' });
    await userEvent.click(within(modal).getByRole('button', { name: 'Cancel listing' }));
    expect(await screen.findByText('The listing was cancelled.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, `${USER}/offering/create/cancel`)).toHaveLength(1);
    expect(callsTo(fetchMock, `${USER}/offering/create/confirm`)).toHaveLength(0);
    // The form is back for a new attempt.
    expect(screen.getByRole('button', { name: 'List item' })).toHaveProperty('disabled', false);
  });

  it('warns before leaving while the listing runs', async () => {
    const answer = deferred<Response>();
    signedIn({ [CREATE]: () => answer.promise });
    const { router } = renderRoute(PAGE);
    await fillValidForm();
    await submit();
    await screen.findByRole('dialog', { name: 'Listing your item' });
    await router.navigate('/sellers');
    const guard = await screen.findByRole('dialog', { name: 'A process is in progress' });
    expect(router.state.location.pathname).toBe(PAGE);
    await userEvent.click(within(guard).getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe(PAGE);
    answer.resolve(ok(listingProgressFixture({ step: 'done', percent: 100 }), 202));
    expect(
      await screen.findByText('Your offering was submitted and is waiting for validation'),
    ).toBeTruthy();
  });

  it("shows an error step's text", async () => {
    signedIn({
      [CREATE]: () =>
        ok(
          listingProgressFixture({ step: 'error', error: 'market.list.errors.conditionals' }),
          202,
        ),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    expect(
      await within(dialog).findByText('None of the copies could be reserved for this offering.'),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Try again' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('follows the live offering.progress events of its offering', async () => {
    class FakeSocket {
      static all: FakeSocket[] = [];
      readyState = 0;
      onopen: (() => void) | null = null;
      onmessage: ((event: { data: string }) => void) | null = null;
      onclose: (() => void) | null = null;
      constructor(readonly url: string) {
        FakeSocket.all.push(this);
      }
      send() {}
      close() {
        this.readyState = 3;
      }
    }
    vi.stubGlobal('WebSocket', FakeSocket);
    signedIn({
      '/api/config': () => ok({ ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' }),
      [CREATE]: () => ok(listingProgressFixture(), 202),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    await within(dialog).findByText('Getting ready');
    const socket = FakeSocket.all.at(-1);
    const send = (id: string, fields: object) =>
      act(() =>
        socket?.onmessage?.({
          data: JSON.stringify({
            type: 'offering.progress',
            id,
            ...listingProgressFixture(),
            ...fields,
          }),
        }),
      );
    // Another offering's progress is not this one's.
    await send('m-0', { offeringId: 'oF01JCX9Z9Z9Z9Z9Z9Z9Z9Z9Z9Z9', step: 'publishing' });
    expect(within(dialog).getByText('Getting ready')).toBeTruthy();
    await send('m-1', { step: 'preparing', done: 1, total: 2, percent: 25 });
    expect(await within(dialog).findByText('Reserving copies (1/2)')).toBeTruthy();
    expect(within(dialog).getByText('25%')).toBeTruthy();
    await send('m-2', { step: 'publishing', done: 2, total: 2, percent: 90 });
    expect(await within(dialog).findByText('90%')).toBeTruthy();
    await send('m-3', { step: 'done', done: 2, total: 2, percent: 100 });
    expect(
      await screen.findByText('Your offering was submitted and is waiting for validation'),
    ).toBeTruthy();
  });

  it('polls the status every 50 s and gives up after more than 10 not-found answers', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fetchMock = signedIn({
      [CREATE]: () => ok(listingProgressFixture(), 202),
      [STATUS]: () => fail('market.offering.errors.not_found', 404),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    await within(dialog).findByText('Getting ready');
    const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 30)));
    const tick = async () => {
      await act(() => vi.advanceTimersByTimeAsync(TIMINGS.offeringStatusPollMs));
      await settle();
    };

    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.offeringStatusPollMs - 1));
    expect(callsTo(fetchMock, STATUS)).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle();
    expect(callsTo(fetchMock, STATUS)).toHaveLength(1);
    expect(bodyOf(callsTo(fetchMock, STATUS)[0])).toEqual({ offeringId: LISTING_OFFERING_ID });
    for (let answer = 2; answer <= TIMINGS.offeringStatusMaxNotFound; answer += 1) await tick();
    expect(callsTo(fetchMock, STATUS)).toHaveLength(TIMINGS.offeringStatusMaxNotFound);
    expect(within(dialog).getByText('Getting ready')).toBeTruthy();

    await tick();
    expect(
      await within(dialog).findByText('The item could not be listed. Please try again.'),
    ).toBeTruthy();
    // It stops polling.
    await tick();
    expect(callsTo(fetchMock, STATUS)).toHaveLength(TIMINGS.offeringStatusMaxNotFound + 1);
  });

  it('a status answer moves the progress when no live event came', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    signedIn({
      [CREATE]: () => ok(listingProgressFixture(), 202),
      [STATUS]: () => ok(listingProgressFixture({ step: 'listing', done: 1, total: 1 })),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    await within(dialog).findByText('Getting ready');
    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.offeringStatusPollMs));
    expect(await within(dialog).findByText('48%')).toBeTruthy();
    expect(within(dialog).getByText('Listing')).toBeTruthy();
  });
});

describe('new collection', () => {
  const uploadHandlers: Handlers = {
    [`${USER}/store-token-images`]: () =>
      ok({
        upload_id: 'up-1',
        post: { url: 'http://localhost/storage', fields: { key: 'k', policy: 'p' } },
        expires_at: '2026-12-01T00:00:00.000Z',
      }),
    '/storage': () => new Response(null, { status: 204 }),
    [`${USER}/store-token-images/confirm`]: () =>
      ok({
        upload_id: 'up-1',
        kind: 'image',
        bytes: 1000,
        image: { url: '/media/up-1.webp', thumb: '/media/up-1-t.webp' },
        file: null,
      }),
  };

  async function chooseNewCollection(name: string) {
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Collection' }),
      'New collection…',
    );
    await enter(screen.getByRole('textbox', { name: /^Collection name/ }), name);
  }

  it('refuses a collection image of the wrong type before anything is sent', async () => {
    const fetchMock = signedIn({ ...uploadHandlers });
    renderRoute(PAGE);
    await fillValidForm();
    await chooseNewCollection('Mugs');
    await userEvent.upload(
      screen.getByLabelText('Choose the collection image'),
      new File(['x'], 'doc.pdf', { type: 'application/pdf' }),
      { applyAccept: false },
    );
    expect(
      await screen.findByText('The image must be a PNG, JPEG, WebP, BMP or GIF file.'),
    ).toBeTruthy();
    await submit();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
    expect(callsTo(fetchMock, `${USER}/store-token-images`)).toHaveLength(0);
  });

  it('creates the collection first, then lists into it', async () => {
    const createCollection = deferred<Response>();
    const fetchMock = signedIn({
      ...uploadHandlers,
      [`${USER}/token/createcollection`]: () => createCollection.promise,
      [CREATE]: () => ok(listingProgressFixture(), 202),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await chooseNewCollection('Mugs');
    expect(screen.getByRole('textbox', { name: /^Collection symbol/ })).toHaveProperty(
      'value',
      'mugs',
    );
    await userEvent.upload(
      screen.getByLabelText('Choose the collection image'),
      new File(['x'], 'c.png', { type: 'image/png' }),
    );
    await submit();
    const dialog = await screen.findByRole('dialog', { name: 'Listing your item' });
    expect(await within(dialog).findByText('Creating the collection')).toBeTruthy();
    createCollection.resolve(ok(listingCollectionFixture(), 201));
    expect(await within(dialog).findByText('Getting ready')).toBeTruthy();
    expect(bodyOf(callsTo(fetchMock, `${USER}/token/createcollection`)[0])).toEqual({
      collection: { title: 'Mugs', symbol: 'mugs', image: 'up-1' },
    });
    const { offering } = bodyOf(callsTo(fetchMock, CREATE)[0]) as { offering: ListingContract };
    expect(offering.collection_id).toBe(LISTING_COLLECTION_ID);
    expect(offering).not.toHaveProperty('new_collection');
  });

  it('shows an existing collection name under the name field', async () => {
    const fetchMock = signedIn({
      ...uploadHandlers,
      [`${USER}/token/createcollection`]: () =>
        fail('market.list.errors.collection_exists', 409, {
          'collection.title': 'market.list.errors.collection_exists',
        }),
      [CREATE]: () => ok(listingProgressFixture(), 202),
    });
    renderRoute(PAGE);
    await fillValidForm();
    await chooseNewCollection('Mugs');
    await userEvent.upload(
      screen.getByLabelText('Choose the collection image'),
      new File(['x'], 'c.png', { type: 'image/png' }),
    );
    await submit();
    const name = await screen.findByRole('textbox', { name: /^Collection name/ });
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('This collection already exists.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo(fetchMock, CREATE)).toHaveLength(0);
  });
});
