import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import type { CardPayment, CheckoutSession, CheckoutStatus } from '../../shared/schemas/orders';
import {
  applyOrderEvent,
  markRefunded,
  orderNotFound,
  patchOrder,
  payWithCard,
  recordPayment,
  writeRefundLines,
} from './apply';
import { isBooked, isPaidFor, transition } from './order.machine';
import { balanceDue, dueNowOf, type OrderRecord } from './orders';
import type { OrdersDeps } from './ports';

/**
 * Paying for an order (issue 12 §1 step 3, §4): Stripe Checkout (`payment-gateway/checkout/create`)
 * or a saved card (`create-payment-intent`), and what Stripe's webhooks tell (payments/webhook.ts
 * hands the events over through orders' public module). Stripe is the truth: every handler reads
 * the PaymentIntent from Stripe and records what it says, so any order of events converges.
 */

/** Where Stripe sends the buyer back (web routes). */
export const ORDER_PAGES = {
  order: (orderId: string) => `/account/orders/${orderId}`,
  checkout: (offeringId: string, orderId: string) =>
    `/market/product/${offeringId}/checkout?order=${orderId}&step=3`,
};

/** Stripe keeps a Checkout Session open at least 30 minutes; the booking expiry closes it. */
const MIN_SESSION_MS = 31 * 60 * 1000;

async function buyersOrder(deps: OrdersDeps, orderId: string, callerId: string) {
  const record = await deps.repo.get(orderId);
  // Another user's order is not found (its id says nothing to them).
  if (record?.buyer.id !== callerId) throw orderNotFound();
  return record;
}

/** Refuses paying an order whose booking is over (or that is paid), with the machine's code. */
function requirePayable(record: OrderRecord, now: Date): void {
  const outcome = transition(record, { type: 'checkout_started' }, now);
  if (!outcome.ok) {
    throw new DomainError(outcome.code as 'checkout.errors.order_expired', {
      message: `The order is ${record.status}.`,
    });
  }
}

/**
 * The PaymentIntent that paid what the order asked last, when nothing more is due now (paid for,
 * or being honoured, and no balance waiting for the buyer); undefined otherwise.
 */
function settledBy(record: OrderRecord): string | undefined {
  if (balanceDue(record)) return undefined;
  if (!isPaidFor(record) && record.status !== 'payment_intent_success') return undefined;
  const own = record.payments.filter(
    (payment) => payment.extra !== true && payment.status === 'succeeded',
  );
  return own.at(-1)?.payment_intent_id ?? undefined;
}

/** The balance of a deposit order, as one charge. */
function balanceChargeOf(record: OrderRecord) {
  return {
    orderId: record.id,
    userId: record.buyer.id,
    kind: 'balance' as const,
    name: record.item.title,
    currency: record.currency,
    unitAmount: record.unit_price - (record.unit_deposit ?? 0),
    quantity: record.quantity,
  };
}

/** The charge an order's buyer owes now: the balance asked for, else the deposits or the price. */
export function chargeOf(record: OrderRecord) {
  if (balanceDue(record)) return balanceChargeOf(record);
  const deposit = record.payment_mode === 'deposit' && record.unit_deposit !== null;
  return {
    orderId: record.id,
    userId: record.buyer.id,
    kind: deposit ? ('deposit' as const) : ('full' as const),
    name: record.item.title,
    currency: record.currency,
    unitAmount: deposit ? (record.unit_deposit as number) : record.unit_price,
    quantity: record.quantity,
  };
}

/** `POST payment-gateway/checkout/create {order_id}`: Stripe's payment page for the order. */
export async function startCheckout(
  deps: OrdersDeps,
  input: { callerId: string; orderId: string },
  now: Date,
): Promise<CheckoutSession> {
  const record = await buyersOrder(deps, input.orderId, input.callerId);
  if (balanceDue(record)) {
    // The balance the seller asked for, which the saved card did not pay: the buyer's page.
    const session = await deps.payments.createCheckout(
      balanceChargeOf(record),
      {
        successPath: `${ORDER_PAGES.order(record.id)}?session_id={CHECKOUT_SESSION_ID}`,
        cancelPath: ORDER_PAGES.order(record.id),
        expiresAt: new Date(now.getTime() + MIN_SESSION_MS),
        saveCard: false,
        idempotencyKey: `checkout-balance:${record.id}:${record.version}`,
      },
      now,
    );
    return session;
  }
  requirePayable(record, now);
  if (record.session_id !== null) {
    const open = await deps.payments.retrieveCheckout(record.session_id);
    if (open?.status === 'open' && open.url !== null) {
      return {
        session_id: open.session_id,
        url: open.url,
        expires_at: record.booking_expires_at,
      };
    }
  }
  const session = await deps.payments.createCheckout(
    chargeOf(record),
    {
      successPath: `${ORDER_PAGES.order(record.id)}?session_id={CHECKOUT_SESSION_ID}`,
      cancelPath: ORDER_PAGES.checkout(record.offering_id, record.id),
      expiresAt: new Date(now.getTime() + MIN_SESSION_MS),
      // A deposit order's balance is charged later, off session, to this card.
      saveCard: record.payment_mode === 'deposit',
      idempotencyKey: `checkout:${record.id}:${record.version}`,
    },
    now,
  );
  await applyOrderEvent(deps, record.id, { type: 'checkout_started' }, now, {
    strict: true,
    patch: () => ({ session_id: session.session_id, session_url: session.url }),
  });
  return { ...session, expires_at: record.booking_expires_at };
}

/** `POST payment-gateway/checkout/retrieve {session_id}`: where the caller's payment page stands. */
export async function checkoutStatus(
  deps: OrdersDeps,
  input: { callerId: string; sessionId: string },
  now: Date,
): Promise<CheckoutStatus> {
  const facts = await deps.payments.retrieveCheckout(input.sessionId);
  if (facts === undefined || facts.user_id !== input.callerId) {
    throw new DomainError('checkout.errors.no_preorder', { message: 'No valid preorder found' });
  }
  // The return page may arrive before the webhook: converge now (idempotent).
  if (facts.status === 'complete' && facts.payment_intent_id !== null && facts.order_id !== null) {
    await paymentIntentChanged(deps, facts.payment_intent_id, now, { defer: true });
  }
  return {
    session_id: facts.session_id,
    order_id: facts.order_id,
    status: facts.status,
    payment_status: facts.payment_status,
  };
}

/**
 * `POST payment-gateway/create-payment-intent {order_id, payment_method?}`: pays with a saved card
 * (the default when none is named), on session, on the order's one PaymentIntent for what is due
 * (apply.ts payWithCard): a second click or tab confirms the same intent and is answered as it
 * stands. A card that needs the bank answers Stripe's page; a declined card answers its code and
 * the booking keeps running. An open payment page of the order is closed first, so it cannot take
 * a second payment; if it was paid meanwhile, that payment is the answer.
 */
export async function payWithSavedCard(
  deps: OrdersDeps,
  input: { callerId: string; orderId: string; paymentMethod: string | undefined },
  now: Date,
): Promise<CardPayment> {
  let record = await buyersOrder(deps, input.orderId, input.callerId);
  const settled = settledBy(record);
  if (settled !== undefined) {
    // Paid already (a retry whose first answer was lost, a click after another tab paid): the
    // payment that paid it is the answer, not an error and never a second charge.
    return {
      order_id: record.id,
      payment_intent_id: settled,
      status: 'succeeded',
      next_action_url: null,
      error: null,
    };
  }
  if (!balanceDue(record)) {
    requirePayable(record, now);
    // The spec's payment_intent_created: the intent is confirmed next, whatever comes of it.
    record = (
      await applyOrderEvent(deps, record.id, { type: 'checkout_started' }, now, {
        strict: true,
        known: record,
      })
    ).record;
  }
  if (record.session_id !== null) {
    const page = await deps.payments.retrieveCheckout(record.session_id);
    if (page?.status === 'complete' && page.payment_intent_id !== null) {
      // Paid on Stripe's page a moment ago: that payment is the order's; no second charge.
      await paymentIntentChanged(deps, page.payment_intent_id, now, { defer: true });
      return {
        order_id: record.id,
        payment_intent_id: page.payment_intent_id,
        status: 'succeeded',
        next_action_url: null,
        error: null,
      };
    }
    if (page?.status === 'open') await deps.payments.expireCheckout(page.session_id);
  }
  const { facts } = await payWithCard(
    deps,
    record,
    {
      kind: chargeOf(record).kind,
      paymentMethod: input.paymentMethod,
      offSession: false,
      returnPath: ORDER_PAGES.order(record.id),
    },
    now,
    { defer: true },
  );
  if (facts === null) throw new Error('an on-session payment answers facts or throws');
  const status: CardPayment['status'] =
    facts.status === 'succeeded'
      ? 'succeeded'
      : facts.status === 'processing'
        ? 'processing'
        : facts.status === 'requires_action'
          ? 'requires_action'
          : 'failed';
  return {
    order_id: record.id,
    payment_intent_id: facts.payment_intent_id,
    status,
    next_action_url: status === 'requires_action' ? facts.next_action_url : null,
    error:
      status === 'failed'
        ? facts.error_code === 'authentication_required'
          ? 'checkout.errors.authentication_required'
          : 'checkout.errors.card_declined'
        : null,
  };
}

/**
 * A PaymentIntent of an order changed (webhook `payment_intent.succeeded`,
 * `payment_intent.payment_failed`, `checkout.session.completed`, or the return page): read it from
 * Stripe and apply what it says. A payment of no order of ours is ignored.
 */
export async function paymentIntentChanged(
  deps: OrdersDeps,
  paymentIntentId: string,
  now: Date,
  options: { defer?: boolean } = {},
): Promise<void> {
  const facts = await deps.payments.retrievePayment(paymentIntentId);
  if (facts?.order_id === null || facts === undefined) return;
  const record = await deps.repo.get(facts.order_id);
  if (record === undefined) {
    logger.warn('a payment names an order we do not have', { paymentIntentId });
    return;
  }
  const kind = facts.kind === 'deposit' || facts.kind === 'balance' ? facts.kind : 'full';
  if (facts.status === 'succeeded') {
    const expected = kind === 'balance' ? balanceOf(record) : dueNowOf(record);
    if (facts.amount !== expected || facts.currency !== record.currency) {
      // Never ours to keep: a payment that does not match the order is refunded.
      logger.error('a payment does not match its order; refunding it', {
        orderId: record.id,
        paymentIntentId,
        amount: facts.amount,
        expected,
      });
      await deps.payments.refund({
        paymentIntentId,
        orderId: record.id,
        idempotencyKey: `refund:${record.id}:${paymentIntentId}`,
      });
      return;
    }
  }
  if (facts.status === 'requires_payment_method' || facts.status === 'canceled') {
    if (facts.error_code === null) return; // A fresh intent, or one Checkout replaced.
  }
  await recordPayment(
    deps,
    record.id,
    {
      ...facts,
      kind,
      status: facts.status === 'requires_payment_method' ? 'failed' : facts.status,
    },
    now,
    options,
  );
}

function balanceOf(record: OrderRecord): number {
  return (record.unit_price - (record.unit_deposit ?? 0)) * record.quantity;
}

/** A completed Checkout Session of an order: its PaymentIntent decides. */
export async function checkoutCompleted(
  deps: OrdersDeps,
  sessionId: string,
  now: Date,
): Promise<void> {
  const facts = await deps.payments.retrieveCheckout(sessionId);
  if (facts?.mode !== 'payment' || facts.payment_intent_id === null) return;
  if (facts.status !== 'complete') return;
  await paymentIntentChanged(deps, facts.payment_intent_id, now);
}

/**
 * A charge of an order was refunded (webhook `charge.refunded`), by us or in Stripe's dashboard:
 * every refund of the payment gets its wallet line (keyed by the refund, so ours are not written
 * twice); a partial refund is recorded; the payment that paid a paid-for order refunded in full
 * outside cancels it (the copies back, the transfers reversed). An extra payment's refund is only
 * recorded.
 */
export async function chargeRefunded(
  deps: OrdersDeps,
  paymentIntentId: string,
  now: Date,
): Promise<void> {
  const facts = await deps.payments.retrievePayment(paymentIntentId);
  if (facts?.order_id === null || facts === undefined) return;
  const record = await deps.repo.get(facts.order_id);
  // Only a payment of this order (not one refunded at once because it did not match it).
  const payment = record?.payments.find((entry) => entry.payment_intent_id === paymentIntentId);
  if (record === undefined || payment === undefined) return;
  if (facts.amount_refunded >= facts.amount) {
    await applyOrderEvent(
      deps,
      record.id,
      { type: 'refunded', payment_intent_id: paymentIntentId },
      now,
      { strict: false },
    );
  } else {
    await markRefunded(deps, record.id, paymentIntentId, facts.amount_refunded, now);
  }
  const after = (await deps.repo.get(record.id)) ?? record;
  await writeRefundLines(deps, after, payment, await deps.payments.refundsOf(paymentIntentId));
}

/** Whether the buyer may still pay (the booking holds). */
export function payable(record: OrderRecord, now: Date): boolean {
  return isBooked(record) && now.getTime() < Date.parse(record.booking_expires_at);
}

/**
 * An order's Checkout Session expired (webhook `checkout.session.expired`: the booking ended, or
 * Stripe's own expiry): the order forgets it, so the next payment page is a new one.
 */
export async function checkoutExpired(
  deps: OrdersDeps,
  sessionId: string,
  now: Date,
): Promise<void> {
  const facts = await deps.payments.retrieveCheckout(sessionId);
  if (facts?.mode !== 'payment' || facts.status !== 'expired' || facts.order_id === null) return;
  const orderId = facts.order_id;
  if ((await deps.repo.get(orderId)) === undefined) return;
  await patchOrder(
    deps,
    orderId,
    (record) => (record.session_id === sessionId ? { session_id: null, session_url: null } : null),
    now,
  );
}
