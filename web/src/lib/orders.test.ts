import { describe, expect, it } from 'vitest';
import { ORDER_IDS, fail, ok, orderFixture, walletActivityFixture } from '../test/orderFixtures';
import { OFFERING_IDS } from '../test/offeringFixtures';
import { mockApi } from '../test/utils';
import { ApiError } from './api';
import {
  bookCopies,
  checkoutPath,
  createCheckoutSession,
  formatCountdown,
  getMarketOrders,
  getOrder,
  getPurchases,
  getSales,
  getUserBalance,
  getWalletActivity,
  isBooked,
  orderPath,
  payWithSavedCard,
  retrieveCheckoutSession,
  secondsLeft,
  updateOrder,
} from './orders';

/** The one call a function made: its method, path, query, body and headers. */
function lastCall(fetchMock: ReturnType<typeof mockApi>) {
  const [input, init] = fetchMock.mock.calls.at(-1) ?? [];
  const url = new URL(String(input), 'http://localhost');
  return {
    method: init?.method,
    path: url.pathname,
    search: url.search,
    body: init?.body === undefined ? undefined : (JSON.parse(String(init.body)) as unknown),
    headers: (init?.headers ?? {}) as Record<string, string>,
  };
}

const page = { items: [orderFixture()], nextCursor: 'c2' };

describe('the orders client', () => {
  it('books copies with an Idempotency-Key and answers the order', async () => {
    const fetchMock = mockApi({
      '/api/users/user-1/offering/assigntoken2preorder': () => ok(orderFixture(), 201),
    });
    const order = await bookCopies(
      'user-1',
      { offeringid: OFFERING_IDS.fixed, quantity: 2, postaladdress: null },
      'key-1',
    );
    expect(order.id).toBe(ORDER_IDS.first);
    const call = lastCall(fetchMock);
    expect(call.method).toBe('POST');
    expect(call.body).toEqual({
      order: { offeringid: OFFERING_IDS.fixed, quantity: 2, postaladdress: null },
    });
    expect(call.headers['Idempotency-Key']).toBe('key-1');
  });

  it("raises the booking's error code", async () => {
    mockApi({
      '/api/users/user-1/offering/assigntoken2preorder': () =>
        fail('market.buy.errors.booked', 409),
    });
    const error = await bookCopies(
      'user-1',
      { offeringid: OFFERING_IDS.fixed, quantity: 1, postaladdress: null },
      'key-2',
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('market.buy.errors.booked');
    expect((error as ApiError).status).toBe(409);
  });

  it('sends the card payment calls', async () => {
    const fetchMock = mockApi({
      '/api/payment-gateway/checkout/create': () =>
        ok({ session_id: 'cs_1', url: 'https://stripe.test/cs_1', expires_at: 'x' }),
      '/api/payment-gateway/create-payment-intent': () =>
        ok({
          order_id: ORDER_IDS.first,
          payment_intent_id: 'pi_1',
          status: 'succeeded',
          next_action_url: null,
          error: null,
        }),
      '/api/payment-gateway/checkout/retrieve': () =>
        ok({
          session_id: 'cs_1',
          order_id: ORDER_IDS.first,
          status: 'complete',
          payment_status: 'paid',
        }),
    });
    expect((await createCheckoutSession(ORDER_IDS.first)).url).toBe('https://stripe.test/cs_1');
    expect(lastCall(fetchMock).body).toEqual({ order_id: ORDER_IDS.first });
    await payWithSavedCard(ORDER_IDS.first, 'pm_visa');
    expect(lastCall(fetchMock).body).toEqual({
      order_id: ORDER_IDS.first,
      payment_method: 'pm_visa',
    });
    await payWithSavedCard(ORDER_IDS.first);
    expect(lastCall(fetchMock).body).toEqual({ order_id: ORDER_IDS.first });
    expect((await retrieveCheckoutSession('cs_1')).payment_status).toBe('paid');
    expect(lastCall(fetchMock).body).toEqual({ session_id: 'cs_1' });
  });

  it('reads orders: one, the purchases, the sales and the market list', async () => {
    const fetchMock = mockApi({
      '/api/order/retrievebyid': () => ok(orderFixture()),
      '/api/order/retrievebycustomeruser': () => ok(page),
      '/api/order/retrievebyselleruser': () => ok(page),
      '/api/order/retrievemarket': () => ok(page),
    });
    await getOrder(ORDER_IDS.first);
    expect(lastCall(fetchMock)).toMatchObject({
      method: 'POST',
      body: { order_id: ORDER_IDS.first },
    });
    await getPurchases();
    expect(lastCall(fetchMock).body).toEqual({});
    await getSales('c1');
    expect(lastCall(fetchMock)).toMatchObject({
      path: '/api/order/retrievebyselleruser',
      body: { last: 'c1' },
    });
    expect((await getMarketOrders('c2')).nextCursor).toBe('c2');
    expect(lastCall(fetchMock)).toMatchObject({ method: 'GET', search: '?cursor=c2' });
    await getMarketOrders(null);
    expect(lastCall(fetchMock).search).toBe('');
  });

  it('moves an order with its action', async () => {
    const fetchMock = mockApi({
      [`/api/users/user-1/offering/updateorder/${ORDER_IDS.first}`]: () => ok(orderFixture()),
    });
    await updateOrder('user-1', ORDER_IDS.first, {
      action: 'ship',
      carrier: 'Correos',
      tracking: 'PK123',
    });
    expect(lastCall(fetchMock)).toMatchObject({
      method: 'POST',
      body: { action: 'ship', carrier: 'Correos', tracking: 'PK123' },
    });
  });

  it('reads the wallet activity and the balance', async () => {
    const fetchMock = mockApi({
      '/api/payment-gateway/activity': () =>
        ok({ items: [walletActivityFixture()], nextCursor: null }),
      '/api/payment-gateway/getuserbalance': () =>
        ok({ available: [{ amount: 1100, currency: 'usd' }], pending: [] }),
    });
    expect((await getWalletActivity('w2')).items).toHaveLength(1);
    expect(lastCall(fetchMock)).toMatchObject({ method: 'GET', search: '?cursor=w2' });
    expect((await getUserBalance()).available).toEqual([{ amount: 1100, currency: 'usd' }]);
  });
});

describe('order helpers', () => {
  it('builds the checkout and order paths', () => {
    expect(checkoutPath(OFFERING_IDS.fixed)).toBe(`/market/product/${OFFERING_IDS.fixed}/checkout`);
    expect(checkoutPath(OFFERING_IDS.fixed, { id: ORDER_IDS.first, step: 3 })).toBe(
      `/market/product/${OFFERING_IDS.fixed}/checkout?order=${ORDER_IDS.first}&step=3`,
    );
    expect(checkoutPath(OFFERING_IDS.fixed, { id: ORDER_IDS.first })).toBe(
      `/market/product/${OFFERING_IDS.fixed}/checkout?order=${ORDER_IDS.first}`,
    );
    expect(orderPath(ORDER_IDS.first)).toBe(`/account/orders/${ORDER_IDS.first}`);
  });

  it('counts the booking down in mm:ss', () => {
    const now = Date.parse('2026-03-01T10:00:00.000Z');
    expect(secondsLeft('2026-03-01T10:05:00.000Z', now)).toBe(300);
    expect(secondsLeft('2026-03-01T10:00:00.400Z', now)).toBe(1);
    expect(secondsLeft('2026-03-01T09:59:00.000Z', now)).toBe(0);
    expect(secondsLeft('not a date', now)).toBe(0);
    expect(formatCountdown(300)).toBe('05:00');
    expect(formatCountdown(61)).toBe('01:01');
    expect(formatCountdown(9)).toBe('00:09');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });

  it('knows which statuses hold a booking', () => {
    expect(isBooked('accepted')).toBe(true);
    expect(isBooked('payment_intent_created')).toBe(true);
    expect(isBooked('paid')).toBe(false);
    expect(isBooked('order_expired')).toBe(false);
  });
});
