import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Address } from '@shared/schemas/addresses';
import type { OfferingDetail } from '@shared/schemas/offerings';
import type { Order } from '@shared/schemas/orders';
import type { SavedCard } from '@shared/schemas/payments';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paymentNavigation } from '../../lib/orders';
import { configWithAuthFixture } from '../../test/fixtures';
import {
  ITEM_ID,
  OFFERING_IDS,
  offeringCardFixture,
  offeringDetailFixture,
  offeringItemFixture,
} from '../../test/offeringFixtures';
import { fail, ok, ORDER_CALLS, orderFixture, paidOrderFixture } from '../../test/orderFixtures';
import { savedCardFixture } from '../../test/paymentFixtures';
import {
  addressFixture,
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

const OFFERING = OFFERING_IDS.fixed;
const CHECKOUT = `/market/product/${OFFERING}/checkout`;
const USER = '/api/users/user-1';
const DETAIL = `${USER}/offering/getofferingbyid/${OFFERING}`;
const ITEM = `${USER}/token/getproductbyid/${ITEM_ID}`;
const ADDRESSES = `${USER}/addresses`;

type Handlers = Parameters<typeof mockApi>[0];
type FetchMock = ReturnType<typeof mockApi>;

interface Setup {
  offering?: OfferingDetail | (() => Response);
  addresses?: Address[];
  cards?: SavedCard[];
  order?: Order | (() => Response);
  extra?: Handlers;
}

/** The calls of the checkout for the signed-in @ana (user-1). */
function setup({
  offering = offeringDetailFixture(),
  addresses = [addressFixture()],
  cards = [savedCardFixture()],
  order,
  extra = {},
}: Setup = {}) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  return mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${USER}/user-profile`]: () => ok(ownProfileFixture()),
    [DETAIL]: typeof offering === 'function' ? offering : () => ok(offering),
    [ITEM]: () => ok(offeringItemFixture()),
    [ADDRESSES]: () => ok({ items: addresses }),
    [ORDER_CALLS.cards]: () => ok({ payment_methods: cards }),
    ...(order
      ? { [ORDER_CALLS.retrieve]: typeof order === 'function' ? order : () => ok(order) }
      : {}),
    ...extra,
  });
}

const callsTo = (fetchMock: FetchMock, path: string) =>
  fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body)) as unknown;
const headersOf = (call: unknown[] | undefined) =>
  ((call?.[1] as RequestInit | undefined)?.headers ?? {}) as Record<string, string>;

/** A description list's terms and their values, as read. */
function pairsOf(element: HTMLElement) {
  return [...element.querySelectorAll('dt')].map((term) => [
    term.textContent,
    term.nextElementSibling?.textContent,
  ]);
}

/** The step the stepper marks as the current one (its label, without the step's number). */
function currentStep() {
  const steps = screen.getByRole('navigation', { name: 'Checkout steps' });
  return steps.querySelector('[aria-current="step"]')?.textContent?.replace(/^\d/, '');
}

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

describe('checkout', () => {
  it('books, reviews and pays with the saved card, then opens the order', async () => {
    const booked = orderFixture();
    let bookings = 0;
    const fetchMock = setup({
      extra: {
        [ORDER_CALLS.book]: () => {
          bookings += 1;
          return ok(booked, 201);
        },
        [ORDER_CALLS.retrieve]: () => ok(bookings > 0 ? booked : paidOrderFixture()),
        [ORDER_CALLS.payIntent]: () =>
          ok({
            order_id: booked.id,
            payment_intent_id: 'pi_1',
            status: 'succeeded',
            next_action_url: null,
            error: null,
          }),
      },
    });
    const { router } = renderRoute(CHECKOUT);
    expect(await screen.findByRole('heading', { level: 1, name: 'Checkout' })).toBeTruthy();
    const item = await screen.findByRole('region', { name: 'Item' });
    expect(within(item).getByText('Stoneware mug')).toBeTruthy();
    expect(within(item).getByText('$12,50 per copy')).toBeTruthy();
    expect(within(item).getByText('3 copies left')).toBeTruthy();
    expect(currentStep()).toBe('Copies and shipping');
    // Any number of the copies left, 1 to start with.
    const quantity = screen.getByRole('spinbutton', { name: 'Number of copies' });
    expect(quantity).toHaveProperty('value', '1');
    expect(screen.getByText('From 1 to 3')).toBeTruthy();

    // The default address is chosen; the item is delivered to Spain only.
    const addresses = await screen.findByRole('radiogroup', { name: 'Deliver to' });
    expect(within(addresses).getByRole('radio', { name: /Ana García/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByText('Delivered to: Spain')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Book copies' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?order=${booked.id}&step=2`));
    const [booking] = callsTo(fetchMock, ORDER_CALLS.book);
    expect(bodyOf(booking)).toEqual({
      order: {
        offeringid: OFFERING,
        quantity: 1,
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
      },
    });
    expect(headersOf(booking)['Idempotency-Key']).toMatch(/^[\w-]{8,}$/);

    // Step 2: the amounts, where it goes, the split of the payment, the countdown.
    await waitFor(() => expect(currentStep()).toBe('Review'));
    const review = screen.getByRole('region', { name: 'Your order' });
    const total = within(review).getByText('Total').nextElementSibling as HTMLElement;
    expect(within(total).getByText('$12,50')).toBeTruthy();
    expect(within(total).getByText('$12,50 × 1')).toBeTruthy();
    expect(within(review).getAllByText('$12,50').length).toBeGreaterThan(0);
    expect(within(review).getByText('Calle Mayor 1')).toBeTruthy();
    const split = within(review).getByRole('region', { name: 'Where the payment goes' });
    expect(pairsOf(split)).toEqual([
      ['Payment', '$12,50'],
      ['Platform fee (2%)', '$0,25'],
      ["Creator's royalty (10%)", '$1,00'],
      ["Beneficiary's share (20%)", '$0,25'],
      ['Seller receives', '$11,00'],
    ]);
    const timer = screen.getByRole('timer', { name: 'Booking time left' });
    expect(timer.textContent).toMatch(/Copies booked for you: 0[34]:\d\d left/);

    await userEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?order=${booked.id}&step=3`));
    expect(currentStep()).toBe('Payment');
    const pay = await screen.findByRole('button', { name: 'Pay $12,50 with Visa •••• 4242' });
    expect(screen.getByRole('button', { name: 'Pay with a new card' })).toBeTruthy();
    await userEvent.click(pay);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/account/orders/${booked.id}`),
    );
    expect(bodyOf(callsTo(fetchMock, ORDER_CALLS.payIntent)[0])).toEqual({
      order_id: booked.id,
      payment_method: 'pm_visa',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Order' })).toBeTruthy();
    expect(bookings).toBe(1);
  });

  it("says the spec's text when the copies are booked by someone else, and stays on step 1", async () => {
    const fetchMock = setup({
      extra: { [ORDER_CALLS.book]: () => fail('market.buy.errors.booked', 409) },
    });
    const { router } = renderRoute(CHECKOUT);
    await userEvent.click(await screen.findByRole('button', { name: 'Book copies' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This product is booked, try again in five minutes.',
    );
    expect(router.state.location.search).toBe('');
    expect(currentStep()).toBe('Copies and shipping');
    expect(screen.getByRole('button', { name: 'Book copies' })).toHaveProperty('disabled', false);
    // A new attempt is a new Idempotency-Key.
    await userEvent.click(screen.getByRole('button', { name: 'Book copies' }));
    await waitFor(() => expect(callsTo(fetchMock, ORDER_CALLS.book)).toHaveLength(2));
    const [first, second] = callsTo(fetchMock, ORDER_CALLS.book);
    expect(headersOf(first)['Idempotency-Key']).not.toBe(headersOf(second)['Idempotency-Key']);
  });

  it('restores step 2 from the order on a reload', async () => {
    const order = orderFixture();
    const fetchMock = setup({ order });
    renderRoute(`${CHECKOUT}?order=${order.id}&step=2`);
    expect(await screen.findByRole('region', { name: 'Your order' })).toBeTruthy();
    expect(currentStep()).toBe('Review');
    expect(screen.getByRole('timer', { name: 'Booking time left' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Book copies' })).toBeNull();
    expect(bodyOf(callsTo(fetchMock, ORDER_CALLS.retrieve)[0])).toEqual({ order_id: order.id });
    expect(callsTo(fetchMock, ORDER_CALLS.book)).toHaveLength(0);
  });

  it('opens a booked order without a step on the payment (back from Stripe)', async () => {
    const order = orderFixture({ status: 'payment_intent_created' });
    setup({ order, cards: [] });
    renderRoute(`${CHECKOUT}?order=${order.id}`);
    // No saved card: the new card is the only way.
    expect(await screen.findByRole('button', { name: 'Pay with a new card' })).toBeTruthy();
    expect(currentStep()).toBe('Payment');
    expect(screen.queryByRole('button', { name: /with Visa/ })).toBeNull();
  });

  it('shows the booking expired when the countdown reaches 0, and books again', async () => {
    const order = orderFixture({
      booking_expires_at: new Date(Date.now() + 1_500).toISOString(),
    });
    setup({ order });
    const { router } = renderRoute(`${CHECKOUT}?order=${order.id}&step=3`);
    expect(await screen.findByRole('timer', { name: 'Booking time left' })).toBeTruthy();
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert.textContent).toContain(
      'Your booking expired and the copies were released. Book again to buy them.',
    );
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay $12,50 with Visa •••• 4242' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('button', { name: 'Pay with a new card' })).toHaveProperty(
      'disabled',
      true,
    );
    await userEvent.click(within(alert).getByRole('button', { name: 'Book again' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('button', { name: 'Book copies' })).toBeTruthy();
    expect(currentStep()).toBe('Copies and shipping');
  });

  it('goes to Stripe Checkout in this tab for a new card', async () => {
    const assign = vi.spyOn(paymentNavigation, 'assign').mockImplementation(() => undefined);
    const order = orderFixture();
    const bodies: unknown[] = [];
    setup({
      order,
      extra: {
        [ORDER_CALLS.checkout]: (_url, init) => {
          bodies.push(JSON.parse(String(init?.body)));
          return ok({
            session_id: 'cs_test_1',
            url: 'https://checkout.stripe.test/c/pay/cs_test_1',
            expires_at: new Date(Date.now() + 1_800_000).toISOString(),
          });
        },
      },
    });
    renderRoute(`${CHECKOUT}?order=${order.id}&step=3`);
    await userEvent.click(await screen.findByRole('button', { name: 'Pay with a new card' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_test_1'),
    );
    expect(bodies).toEqual([{ order_id: order.id }]);
    expect(screen.getByRole('button', { name: 'Opening Stripe…' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('says why a saved card was declined and stays on the payment step', async () => {
    const order = orderFixture();
    setup({
      order,
      extra: {
        [ORDER_CALLS.payIntent]: () =>
          ok({
            order_id: order.id,
            payment_intent_id: 'pi_2',
            status: 'failed',
            next_action_url: null,
            error: 'checkout.errors.card_declined',
          }),
      },
    });
    const { router } = renderRoute(`${CHECKOUT}?order=${order.id}&step=3`);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Pay $12,50 with Visa •••• 4242' }),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Your card was declined. Try another card.',
    );
    expect(router.state.location.pathname).toBe(CHECKOUT);
    expect(screen.getByRole('button', { name: 'Pay $12,50 with Visa •••• 4242' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it("goes to the bank's page when the card needs authentication", async () => {
    const assign = vi.spyOn(paymentNavigation, 'assign').mockImplementation(() => undefined);
    const order = orderFixture();
    setup({
      order,
      extra: {
        [ORDER_CALLS.payIntent]: () =>
          ok({
            order_id: order.id,
            payment_intent_id: 'pi_3',
            status: 'requires_action',
            next_action_url: 'https://hooks.stripe.test/3ds/pi_3',
            error: null,
          }),
      },
    });
    renderRoute(`${CHECKOUT}?order=${order.id}&step=3`);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Pay $12,50 with Visa •••• 4242' }),
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://hooks.stripe.test/3ds/pi_3'));
  });

  it('takes a typed address when none is saved, checking the required fields first', async () => {
    const fetchMock = setup({
      addresses: [],
      extra: { [ORDER_CALLS.book]: () => ok(orderFixture(), 201) },
    });
    const { router } = renderRoute(CHECKOUT);
    expect(
      await screen.findByText('You have no saved address: type the delivery address below.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Book copies' }));
    expect((await screen.findAllByText('This field is required.')).length).toBeGreaterThan(3);
    expect(callsTo(fetchMock, ORDER_CALLS.book)).toHaveLength(0);

    const form = screen.getByRole('group', { name: 'A new address' });
    await userEvent.selectOptions(within(form).getByLabelText(/Country/), 'ES');
    await userEvent.type(within(form).getByLabelText(/Full name/), 'Ana García');
    await userEvent.type(within(form).getByLabelText(/Address line 1/), 'Calle Luna 2');
    await userEvent.type(within(form).getByLabelText(/Postal code/), '28004');
    await userEvent.type(within(form).getByLabelText(/City/), 'Madrid');
    await userEvent.type(within(form).getByLabelText(/State or province/), 'Madrid');
    await userEvent.click(screen.getByRole('button', { name: 'Book copies' }));
    await waitFor(() => expect(router.state.location.search).toContain('step=2'));
    expect(bodyOf(callsTo(fetchMock, ORDER_CALLS.book)[0])).toEqual({
      order: {
        offeringid: OFFERING,
        quantity: 1,
        postaladdress: {
          country: 'ES',
          fullname: 'Ana García',
          line1: 'Calle Luna 2',
          line2: null,
          postalcode: '28004',
          city: 'Madrid',
          stateprovince: 'Madrid',
          instructions: null,
        },
      },
    });
  });

  it('shows the pick-up place of a picked-up item, and books without an address', async () => {
    const fetchMock = setup({
      extra: {
        [ITEM]: () =>
          ok(
            offeringItemFixture({
              shipping: {
                mode: 'pickup',
                address: { country: 'ES', line1: 'Taller 3', city: 'Toledo', postalcode: '45001' },
                instructions: 'Weekdays 10–14 h.',
              },
            }),
          ),
        [ORDER_CALLS.book]: () =>
          ok(orderFixture({ delivery: 'pickup', postaladdress: null }), 201),
      },
    });
    renderRoute(CHECKOUT);
    const pickup = await screen.findByRole('region', { name: 'Pick-up' });
    expect(within(pickup).getByText('Taller 3, 45001 Toledo, Spain')).toBeTruthy();
    expect(within(pickup).getByText('Instructions: Weekdays 10–14 h.')).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: 'Deliver to' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Book copies' }));
    await waitFor(() => expect(callsTo(fetchMock, ORDER_CALLS.book)).toHaveLength(1));
    expect(bodyOf(callsTo(fetchMock, ORDER_CALLS.book)[0])).toEqual({
      order: { offeringid: OFFERING, quantity: 1, postaladdress: null },
    });
    expect(callsTo(fetchMock, ADDRESSES)).toHaveLength(0);
  });

  it('books several copies of a fixed price, up to those left', async () => {
    const fetchMock = setup({
      offering: offeringDetailFixture(
        { item: { ...offeringDetailFixture().item, product_type: 'digital' } },
        { item: { ...offeringCardFixture().item, product_type: 'digital' } },
      ),
      extra: { [ORDER_CALLS.book]: () => ok(orderFixture({ delivery: 'none' }), 201) },
    });
    renderRoute(CHECKOUT);
    const quantity = await screen.findByRole('spinbutton', { name: 'Number of copies' });
    expect(screen.getByText('From 1 to 3')).toBeTruthy();
    expect(screen.getByText('Nothing to send: the copies are yours once paid.')).toBeTruthy();
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '4');
    expect(screen.getByText('Choose a number of copies this offering still has.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Book copies' })).toHaveProperty('disabled', true);
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Book copies' }));
    await waitFor(() => expect(callsTo(fetchMock, ORDER_CALLS.book)).toHaveLength(1));
    expect(bodyOf(callsTo(fetchMock, ORDER_CALLS.book)[0])).toEqual({
      order: { offeringid: OFFERING, quantity: 2, postaladdress: null },
    });
  });

  it('says so for an own offering, one not on sale, and one not found', async () => {
    setup({ offering: offeringDetailFixture({ is_seller: true }) });
    const own = renderRoute(CHECKOUT);
    expect(await screen.findByRole('heading', { name: 'This is your own offering' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the item' }).getAttribute('href')).toBe(
      `/market/product/${ITEM_ID}?offering=${OFFERING}`,
    );
    expect(screen.queryByRole('button', { name: 'Book copies' })).toBeNull();
    own.unmount();

    setup({ offering: offeringDetailFixture({}, { copies_left: 0 }) });
    const soldOut = renderRoute(CHECKOUT);
    expect(
      await screen.findByRole('heading', { name: 'This offering is not on sale' }),
    ).toBeTruthy();
    soldOut.unmount();

    setup({ offering: () => fail('market.offering.errors.not_found', 404) });
    renderRoute(CHECKOUT);
    expect(
      await screen.findByRole('heading', { name: 'This offering could not be found' }),
    ).toBeTruthy();
  });

  it('fits a phone: the steps and the Book button are there', async () => {
    setViewportWidth(PHONE_WIDTH);
    setup();
    renderRoute(CHECKOUT);
    expect(await screen.findByRole('button', { name: 'Book copies' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Checkout steps' })).toBeTruthy();
  });

  it('sends guests to /', async () => {
    amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
    mockApi({ '/api/config': () => ok(configWithAuthFixture()) });
    const { router } = renderRoute(CHECKOUT);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('Buy now on the item page', () => {
  it('opens the checkout of the offering', async () => {
    setup({
      extra: {
        [`${USER}/offering/getofferings`]: () =>
          ok({ items: [offeringCardFixture()], nextCursor: null }),
      },
    });
    const { router } = renderRoute(`/market/product/${ITEM_ID}`);
    const panel = await screen.findByRole('article', { name: 'Offering by @lumen' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Buy now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(CHECKOUT));
    expect(await screen.findByRole('button', { name: 'Book copies' })).toBeTruthy();
  });

  it('sends a guest to the login modal, and stays on the item', async () => {
    amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
    mockApi({
      '/api/config': () => ok(configWithAuthFixture()),
      [`/api/users/-/token/getproductbyid/${ITEM_ID}`]: () => ok(offeringItemFixture()),
      '/api/users/-/offering/getofferings': () =>
        ok({ items: [offeringCardFixture()], nextCursor: null }),
      [`/api/users/-/offering/getofferingbyid/${OFFERING}`]: () => ok(offeringDetailFixture()),
    });
    const { router } = renderRoute(`/market/product/${ITEM_ID}`);
    const panel = await screen.findByRole('article', { name: 'Offering by @lumen' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Buy now' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/market/product/${ITEM_ID}`);
  });

  it('is not offered to the seller', async () => {
    setup({
      offering: offeringDetailFixture({ is_seller: true }),
      extra: {
        [`${USER}/offering/getofferings`]: () =>
          ok({ items: [offeringCardFixture()], nextCursor: null }),
      },
    });
    renderRoute(`/market/product/${ITEM_ID}`);
    const panel = await screen.findByRole('article', { name: 'Your offering' });
    expect(within(panel).queryByRole('button', { name: 'Buy now' })).toBeNull();
  });
});
