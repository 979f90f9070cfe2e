import type { Order, OrderDispute, WalletActivity } from '@shared/schemas/orders';
import { ITEM_ID, OFFERING_IDS } from './offeringFixtures';
import { jsonResponse } from './utils';

/** Order ids as the API makes them: `oR` + a ULID. */
export const ORDER_IDS = {
  first: 'oR01JF0000000000000000000001',
  second: 'oR01JF0000000000000000000002',
  third: 'oR01JF0000000000000000000003',
} as const;

/** The calls of this area (shared/schemas/orders.ts, issue 12). */
export const ORDER_CALLS = {
  book: '/api/users/user-1/offering/assigntoken2preorder',
  retrieve: '/api/order/retrievebyid',
  market: '/api/order/retrievemarket',
  checkout: '/api/payment-gateway/checkout/create',
  retrieveSession: '/api/payment-gateway/checkout/retrieve',
  payIntent: '/api/payment-gateway/create-payment-intent',
  cards: '/api/payment-gateway/payment-methods',
  activity: '/api/payment-gateway/activity',
  balance: '/api/payment-gateway/getuserbalance',
  update: (orderId: string) => `/api/users/user-1/offering/updateorder/${orderId}`,
} as const;

export const ok = (data: unknown, status = 200) => jsonResponse({ data }, status);
export const fail = (code: string, status: number, fields?: Record<string, string>) =>
  jsonResponse(
    { error: { code, message: code, requestId: 't', ...(fields ? { fields } : {}) } },
    status,
  );

/**
 * An order of the fixed-price mug (offeringFixtures) booked by @ana (user-1) from @lumen: one
 * copy at $12,50, delivered to Madrid, the booking running 4 minutes from now.
 */
export function orderFixture(overrides: Partial<Order> = {}): Order {
  const now = Date.now();
  return {
    id: ORDER_IDS.first,
    status: 'accepted',
    scope: 'market',
    subScope: 'purchase',
    ordergroupid: 'og-1',
    assignround: null,
    offering_id: OFFERING_IDS.fixed,
    item: {
      id: ITEM_ID,
      title: 'Stoneware mug',
      product_type: 'physical',
      image: { url: '/media/mug.webp', thumb: '/media/mug-t.webp' },
    },
    seller: { id: 'user-2', nick: 'lumen' },
    buyer: { id: 'user-1', nick: 'ana' },
    sellerNick: 'lumen',
    lineItems: [
      {
        id: OFFERING_IDS.fixed,
        name: 'Stoneware mug',
        deposit: null,
        currency: 'USD',
        amount: 1250,
        quantity: 1,
        nftuniqueids: [],
      },
    ],
    currency: 'USD',
    payment_mode: 'fullprice',
    total: 1250,
    due_now: 1250,
    balance_due: 0,
    paid: 0,
    refunded: 0,
    split: {
      gross: 1250,
      fee: 25,
      royalty: 125,
      creator: 100,
      beneficiary: 25,
      seller: 1100,
      first_sale: false,
      royalty_percent: 10,
      beneficiary_percent: 20,
    },
    payments: [],
    transfers: [],
    delivery: 'delivery',
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
    pickup: null,
    fulfilment: 'none',
    shipment: null,
    release_at: null,
    booking_expires_at: new Date(now + 4 * 60_000).toISOString(),
    cancel_reason: null,
    dispute: null,
    payment_error: null,
    timeline: [{ status: 'accepted', label: 'accepted', at: new Date(now).toISOString() }],
    actions: ['pay'],
    role: 'buyer',
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    ...overrides,
  };
}

/** The same order once paid by card: a serial, a receipt, the shares held until delivery. */
export function paidOrderFixture(overrides: Partial<Order> = {}): Order {
  const base = orderFixture();
  return orderFixture({
    status: 'paid',
    paid: 1250,
    lineItems: base.lineItems.map((line) => ({ ...line, nftuniqueids: ['mug-0004'] })),
    payments: [
      {
        kind: 'full',
        amount: 1250,
        currency: 'USD',
        status: 'succeeded',
        payment_intent_id: 'pi_1',
        receipt_url: 'https://pay.stripe.test/receipts/1',
        paid_at: '2026-03-01T10:01:00.000Z',
        extra: false,
      },
    ],
    transfers: [
      {
        party: 'seller',
        user: { id: 'user-2', nick: 'lumen' },
        amount: 1100,
        currency: 'USD',
        state: 'held',
        transfer_id: null,
        netted: 0,
      },
    ],
    timeline: [
      { status: 'accepted', label: 'accepted', at: '2026-03-01T10:00:00.000Z' },
      { status: 'paid', label: 'paid', at: '2026-03-01T10:01:00.000Z' },
    ],
    actions: [],
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:01:00.000Z',
    ...overrides,
  });
}

/**
 * The buyer's bank disputing the mug's payment as fraud, open, support's evidence due on
 * 10/03/2026 at 12:00 UTC.
 */
export function disputeFixture(overrides: Partial<OrderDispute> = {}): OrderDispute {
  return {
    id: 'dp_1',
    status: 'open',
    stripe_status: 'needs_response',
    reason: 'fraudulent',
    amount: 1250,
    currency: 'USD',
    evidence_due_by: '2026-03-10T12:00:00.000Z',
    opened_at: '2026-03-02T09:00:00.000Z',
    closed_at: null,
    ...overrides,
  };
}

export function walletActivityFixture(overrides: Partial<WalletActivity> = {}): WalletActivity {
  return {
    id: 'wa-1',
    date: '2026-03-01T10:01:00.000Z',
    event: 'payment',
    type: 'purchase',
    currency: 'USD',
    amount: 1250,
    amount_paid: 1250,
    amount_received: 0,
    app_commission: 25,
    total: 1250,
    receipt: 'https://pay.stripe.test/receipts/1',
    tx_id: 'pi_3Nabc',
    description: 'Stoneware mug × 1',
    order_id: ORDER_IDS.first,
    ...overrides,
  };
}
