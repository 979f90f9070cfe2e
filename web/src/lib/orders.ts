import { addressListSchema, type Address } from '@shared/schemas/addresses';
import { itemDetailSchema, type ItemDetail } from '@shared/schemas/items';
import {
  cardPaymentSchema,
  checkoutSessionSchema,
  checkoutStatusSchema,
  orderPageSchema,
  orderSchema,
  walletActivityPageSchema,
  type CardPayment,
  type CheckoutSession,
  type CheckoutStatus,
  type Order,
  type OrderPage,
  type OrderStatus,
  type PreorderBody,
  type UpdateOrderBody,
  type WalletActivity,
} from '@shared/schemas/orders';
import { savedCardListSchema, userBalanceSchema, type SavedCard } from '@shared/schemas/payments';
import { useEffect, useState } from 'react';
import { apiGet, apiPost, newIdempotencyKey } from './api';

/**
 * The orders and card-checkout calls (spec 000 §7 order/*, card payment calls; issue 12), shared
 * by the checkout, the order page, the activity pages and the item page's Buy button: web
 * features do not import each other, so the client lives here. Also the few calls of other
 * features the checkout needs (saved cards, saved addresses, the item's shipping), copied rather
 * than imported. Paths and answers: shared/schemas/orders.ts, docs/api.md.
 */
const enc = encodeURIComponent;
const GATEWAY = '/payment-gateway';

export const orderKeys = {
  all: ['orders'] as const,
  detail: (orderId: string) => ['orders', 'detail', orderId] as const,
  market: (userId: string) => ['orders', 'market', userId] as const,
  activity: (userId: string) => ['orders', 'activity', userId] as const,
  balance: (userId: string) => ['orders', 'balance', userId] as const,
  checkoutSession: (sessionId: string) => ['orders', 'checkout-session', sessionId] as const,
  cards: (userId: string) => ['orders', 'cards', userId] as const,
  addresses: (userId: string) => ['orders', 'addresses', userId] as const,
  item: (itemId: string, viewer: string) => ['orders', 'item', itemId, viewer] as const,
};

/** The pages of this area (spec 000 §2, 001 §2). */
export const ORDER_PATHS = {
  activity: '/account/activity',
  marketActivity: '/account/activity/market',
  walletActivity: '/account/activity/wallet',
  history: '/account/wallet/mytokenshistory',
} as const;

/** `/market/product/{offeringId}/checkout`, at a step of a booked order when given. */
export function checkoutPath(offeringId: string, order?: { id: string; step?: 1 | 2 | 3 }): string {
  const base = `/market/product/${enc(offeringId)}/checkout`;
  if (!order) return base;
  const params = new URLSearchParams({ order: order.id });
  if (order.step !== undefined) params.set('step', String(order.step));
  return `${base}?${params.toString()}`;
}

/** `/account/orders/{orderId}`. */
export function orderPath(orderId: string): string {
  return `/account/orders/${enc(orderId)}`;
}

// --- booking and paying ------------------------------------------------------------------------

/**
 * POST users/{id}/offering/assigntoken2preorder {order}: books the copies for 5 minutes (201,
 * the order). 409 market.buy.errors.booked when no free copies are left to book.
 */
export function bookCopies(
  userId: string,
  order: PreorderBody['order'],
  idempotencyKey: string,
): Promise<Order> {
  return apiPost(
    `/users/${enc(userId)}/offering/assigntoken2preorder`,
    { order },
    { schema: orderSchema, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

/**
 * POST payment-gateway/checkout/create {order_id}: Stripe Checkout's page for the order. The
 * Idempotency-Key (one per call, reused by its retries) makes a retried request get the first page.
 */
export function createCheckoutSession(
  orderId: string,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<CheckoutSession> {
  return apiPost(
    `${GATEWAY}/checkout/create`,
    { order_id: orderId },
    { schema: checkoutSessionSchema, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

/**
 * POST payment-gateway/create-payment-intent {order_id, payment_method?}: pay with a saved card.
 * A retried request (same key) gets the first answer; a second click confirms the same
 * PaymentIntent on the server, so the card is charged once whatever the clicks.
 */
export function payWithSavedCard(
  orderId: string,
  paymentMethod?: string,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<CardPayment> {
  return apiPost(
    `${GATEWAY}/create-payment-intent`,
    paymentMethod === undefined
      ? { order_id: orderId }
      : { order_id: orderId, payment_method: paymentMethod },
    { schema: cardPaymentSchema, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

/** POST payment-gateway/checkout/retrieve {session_id}: where a Checkout session stands. */
export function retrieveCheckoutSession(sessionId: string): Promise<CheckoutStatus> {
  return apiPost(
    `${GATEWAY}/checkout/retrieve`,
    { session_id: sessionId },
    { schema: checkoutStatusSchema },
  );
}

// --- orders ------------------------------------------------------------------------------------

/** POST order/retrievebyid {order_id}: 404 orders.errors.not_found. */
export function getOrder(orderId: string, signal?: AbortSignal): Promise<Order> {
  return apiPost('/order/retrievebyid', { order_id: orderId }, { schema: orderSchema, signal });
}

/** POST order/retrievebycustomeruser {last?}: the caller's purchases. */
export function getPurchases(last?: string): Promise<OrderPage> {
  return apiPost('/order/retrievebycustomeruser', last === undefined ? {} : { last }, {
    schema: orderPageSchema,
  });
}

/** POST order/retrievebyselleruser {last?}: the caller's sales. */
export function getSales(last?: string): Promise<OrderPage> {
  return apiPost('/order/retrievebyselleruser', last === undefined ? {} : { last }, {
    schema: orderPageSchema,
  });
}

/** GET order/retrievemarket?cursor=: the caller's orders, bought and sold, newest first. */
export function getMarketOrders(cursor?: string | null, signal?: AbortSignal): Promise<OrderPage> {
  return apiGet('/order/retrievemarket', {
    query: { cursor: cursor ?? undefined },
    schema: orderPageSchema,
    signal,
  });
}

/** POST users/{id}/offering/updateorder/{orderId}: ship, confirm receipt, cancel, ready. */
export function updateOrder(
  userId: string,
  orderId: string,
  body: UpdateOrderBody,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<Order> {
  return apiPost(`/users/${enc(userId)}/offering/updateorder/${enc(orderId)}`, body, {
    schema: orderSchema,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

// --- the wallet --------------------------------------------------------------------------------

export interface WalletActivityPage {
  items: WalletActivity[];
  nextCursor: string | null;
}

/** GET payment-gateway/activity?cursor=: payments, refunds, payouts and reversals. */
export function getWalletActivity(
  cursor?: string | null,
  signal?: AbortSignal,
): Promise<WalletActivityPage> {
  return apiGet(`${GATEWAY}/activity`, {
    query: { cursor: cursor ?? undefined },
    schema: walletActivityPageSchema,
    signal,
  });
}

/** GET payment-gateway/getuserbalance: the seller's Stripe balance (404 before onboarding). */
export function getUserBalance(signal?: AbortSignal) {
  return apiGet(`${GATEWAY}/getuserbalance`, { schema: userBalanceSchema, signal });
}

// --- what the checkout reads of other features (copies of their calls) -------------------------

/** GET payment-gateway/payment-methods: the saved cards, newest first (features/payments). */
export async function fetchSavedCards(signal?: AbortSignal): Promise<SavedCard[]> {
  const { payment_methods } = await apiGet(`${GATEWAY}/payment-methods`, {
    schema: savedCardListSchema,
    signal,
  });
  return payment_methods;
}

/** GET users/{id}/addresses: the saved addresses, default first (features/addresses). */
export async function fetchAddresses(userId: string, signal?: AbortSignal): Promise<Address[]> {
  const { items } = await apiGet(`/users/${enc(userId)}/addresses`, {
    schema: addressListSchema,
    signal,
  });
  return items;
}

/** POST users/{id}/token/getproductbyid/{itemId}: the item, for its shipping (features/items). */
export function fetchItem(
  userId: string,
  itemId: string,
  signal?: AbortSignal,
): Promise<ItemDetail> {
  return apiPost(
    `/users/${enc(userId)}/token/getproductbyid/${enc(itemId)}`,
    {},
    { schema: itemDetailSchema, signal },
  );
}

// --- pure helpers --------------------------------------------------------------------------------

/** The statuses in which the copies are booked for the buyer and the order can be paid. */
export const BOOKED_STATUSES: readonly OrderStatus[] = ['accepted', 'payment_intent_created'];

/** The statuses the order page polls in (every 5 s) besides listening to the live channel. */
export const POLLED_STATUSES: readonly OrderStatus[] = [
  'accepted',
  'payment_intent_created',
  'payment_intent_success',
];

/** The statuses after a return from Stripe in which the payment is still being confirmed. */
export const CONFIRMING_STATUSES: readonly OrderStatus[] = [
  'payment_intent_created',
  'payment_intent_success',
];

/** The statuses in which the buyer has paid (all, or the deposit). */
export const PAID_STATUSES: readonly OrderStatus[] = [
  'payment_intent_success',
  'checkout_complete',
  'paid',
  'fulfilled',
];

/** Statuses of the copies a user holds or held through an order (the token history). */
export const HISTORY_STATUSES: readonly OrderStatus[] = ['paid', 'fulfilled', 'cancelled'];

export const ORDER_POLL_MS = 5_000;

export function isBooked(status: OrderStatus): boolean {
  return BOOKED_STATUSES.includes(status);
}

/** Whole seconds from `now` (ms) until `until` (ISO), never below 0. */
export function secondsLeft(until: string, now: number): number {
  const rest = Date.parse(until) - now;
  if (!Number.isFinite(rest) || rest <= 0) return 0;
  return Math.ceil(rest / 1000);
}

/** A countdown as mm:ss (minutes grow past 59 rather than wrap). */
export function formatCountdown(seconds: number): string {
  const safe = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(safe / 60);
  const rest = safe % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

/** The seconds left until `until` (ISO), ticking every second; null without a date. */
export function useSecondsLeft(until: string | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? null : secondsLeft(until, now);
}

/** A key for an Idempotency-Key header (one per booking attempt, one per payment action). */
export { newIdempotencyKey };

/**
 * Leaves the app for Stripe (Checkout, the bank's authentication page) in this tab. One object
 * so tests can watch it: jsdom does not navigate.
 */
export const paymentNavigation = {
  assign: (url: string): void => window.location.assign(url),
};

/** One line of "where the payment goes": an i18n key with its values, and the amount. */
export interface SplitLine {
  key: 'gross' | 'fee' | 'creator' | 'beneficiary' | 'seller';
  label:
    | 'orders.split.gross'
    | 'orders.split.fee'
    | 'orders.split.royalty'
    | 'orders.split.beneficiary'
    | 'orders.split.seller';
  values?: Record<string, number>;
  amount: number;
  strong?: boolean;
}

/**
 * The lines of an order's split (Order.split, shared/split.ts), as the checkout's review and the
 * order page show them: the payment, the 2 % fee, the creator's royalty on a resale, the
 * beneficiary's share when there is one, and what the seller receives.
 */
export function splitLines(split: Order['split']): SplitLine[] {
  const lines: SplitLine[] = [
    { key: 'gross', label: 'orders.split.gross', amount: split.gross, strong: true },
    { key: 'fee', label: 'orders.split.fee', amount: split.fee },
  ];
  if (!split.first_sale && split.royalty > 0) {
    lines.push({
      key: 'creator',
      label: 'orders.split.royalty',
      values: { percent: split.royalty_percent ?? 0 },
      amount: split.creator,
    });
  }
  if (split.beneficiary > 0) {
    lines.push({
      key: 'beneficiary',
      label: 'orders.split.beneficiary',
      values: { percent: split.beneficiary_percent ?? 0 },
      amount: split.beneficiary,
    });
  }
  lines.push({ key: 'seller', label: 'orders.split.seller', amount: split.seller });
  return lines;
}
