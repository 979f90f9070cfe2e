import type { DeliveryMode, FulfilmentState, OrderStatus } from '../../shared/schemas/orders';

/** One payment of an order: a PaymentIntent, for the price, the deposits or the balance. */
export interface StoredPayment {
  kind: 'full' | 'deposit' | 'balance';
  amount: number;
  status: 'pending' | 'succeeded' | 'failed' | 'refunded' | 'requires_action';
  payment_intent_id: string | null;
  charge_id: string | null;
  receipt_url: string | null;
  paid_at: string | null;
  refunded: number;
  /**
   * Money the order did not ask for: a second payment of what another payment paid (two tabs, a
   * payment page left open), or a payment for an order that is over. Refunded at once, never paid
   * out, not counted as paid.
   */
  extra?: true;
}

/** A dispute of the order's payment (a chargeback), as the order keeps it. */
export interface StoredDispute {
  id: string;
  status: 'open' | 'won' | 'lost';
  stripe_status: string;
  reason: string;
  amount: number;
  currency: string;
  evidence_due_by: string | null;
  opened_at: string;
  closed_at: string | null;
}

/** What Stripe says of one payment, as an event carries it. */
export interface PaymentFact {
  kind: StoredPayment['kind'];
  payment_intent_id: string;
  amount: number;
  charge_id: string | null;
  receipt_url: string | null;
}

/**
 * An order's state machine (spec 000 §4 order status; issue 12 §2), pure: `transition(state,
 * event, now)` answers the next state and the effects to perform once that state is written
 * (conditioned on the order's version). Every call, webhook and workflow task that moves an order
 * goes through it, so a redelivered webhook or a replayed task finds its event `stale` and does
 * nothing twice.
 *
 *   accepted ─checkout_started─► payment_intent_created ─┐
 *      │                                                 ├─payment_succeeded─► payment_intent_success
 *      └──────────────────────────────────────────────────┘          │ (honour: the copies change owner)
 *   accepted / payment_intent_created ─booking_expired─► order_expired │
 *   order_expired ─payment_succeeded (a late payment)─► payment_intent_success
 *   payment_intent_success ─honoured─► paid (full price) │ checkout_complete (deposit paid)
 *                          └not_honourable─► payment_expired (refunded at once)
 *   checkout_complete ─ready─► (balance charged) ─balance_paid─► paid
 *   paid ─ship─► paid (shipped) ─confirm_receipt / release_due─► fulfilled (payouts)
 *   paid (pick-up: release_at = paid + 14 days) ─confirm_receipt / release_due─► fulfilled
 *   paid (digital, nothing to send) ─ at honour ─► fulfilled
 *   paid / checkout_complete (not shipped) ─cancel─► cancelled (refund, copies back)
 *   paid / checkout_complete / fulfilled ─refunded (outside)─► cancelled
 *   any ─payment_succeeded of money not asked for (a second payment of what is paid, a payment
 *        for an order that is over)─► unchanged, that payment alone refunded (`extra`)
 *
 * The payments are part of the state: whether a payment is the one that pays the order or an
 * extra one is decided here, under the order's version, so two payments racing each other can
 * never both count.
 */
export interface OrderState {
  status: OrderStatus;
  payment_mode: 'fullprice' | 'deposit';
  delivery: DeliveryMode;
  fulfilment: FulfilmentState;
  /** ISO-8601: the copies are booked for the buyer until then. */
  booking_expires_at: string;
  /** ISO-8601: payouts are released without the buyer (14 days after shipping). */
  release_at: string | null;
  /** The balance of a deposit order was asked for (seller's `ready`). */
  balance_requested: boolean;
  /** Why the last payment failed (an error code), cleared by the next attempt. */
  payment_error: string | null;
  cancel_reason: string | null;
  /** Every payment attempt of the order, by PaymentIntent. */
  payments: readonly StoredPayment[];
  /** The dispute of its payment, if the buyer's bank opened one (absent on older orders). */
  dispute?: StoredDispute | null;
}

export type OrderEvent =
  | { type: 'checkout_started' }
  /** A payment attempt failed (`payment` names it when Stripe has one). */
  | { type: 'payment_failed'; code: string; payment?: PaymentFact }
  /** A payment waits on the bank (3-D Secure) or is processing. */
  | { type: 'payment_pending'; payment: PaymentFact; status: 'requires_action' | 'pending' }
  | { type: 'payment_succeeded'; payment: PaymentFact }
  | { type: 'honoured' }
  | { type: 'not_honourable' }
  | { type: 'booking_expired' }
  | { type: 'ship'; carrier: string; tracking: string }
  | { type: 'confirm_receipt' }
  | { type: 'release_due' }
  | { type: 'cancel'; reason: string | null }
  /** A payment of the order was refunded in full outside the app (Stripe's dashboard). */
  | { type: 'refunded'; payment_intent_id: string }
  | { type: 'ready' }
  /** The buyer's bank disputes the payment (Stripe's charge.dispute.*): opened, changed, decided. */
  | { type: 'dispute'; dispute: StoredDispute };

export type OrderEffect =
  /** Live `order.updated` to the buyer and the seller. */
  | 'updated'
  /** Move the booked copies to the buyer (one transaction that also writes this state). */
  | 'honour'
  /** Refund what was paid (a late payment that cannot be honoured, a cancellation). */
  | 'refund'
  /** Refund the extra payments (StoredPayment.extra) not refunded yet, and only them. */
  | 'refund_extra'
  /** Give the booked copies back to the offering (or to the seller when it is over). */
  | 'release_booking'
  /** Expire the open Checkout Session (Stripe keeps one open for at least 30 minutes). */
  | 'expire_session'
  /** Give the sold copies back to the seller (a cancelled or refunded order). */
  | 'return_copies'
  /** Transfer the seller's, creator's and beneficiary's shares. */
  | 'payout'
  /** Take back the transfers already made. */
  | 'reverse_payouts'
  /** Charge a deposit order's balance to the buyer's saved card, off session. */
  | 'charge_balance'
  /** Start the wait that releases payouts 14 days after shipping. */
  | 'schedule_release'
  | 'notify_paid'
  | 'notify_shipped'
  | 'notify_received'
  | 'notify_cancelled'
  | 'notify_expired'
  | 'notify_payment_due'
  /** A dispute opened: the shares not paid out yet are frozen (never paid while it is open). */
  | 'freeze_payouts'
  /** A dispute opened: the shares paid out are taken back (what an account cannot give, owed). */
  | 'claw_back'
  /** A dispute won: frozen and clawed-back shares are due again (paid once released). */
  | 'unfreeze_payouts'
  /** The seller and support are told of the dispute (opened, won, lost). */
  | 'notify_dispute';

export type OrderTransition =
  | { ok: true; state: OrderState; effects: OrderEffect[]; label: string }
  /** The event does not apply now: `code` is what a caller gets; `stale` marks a replay. */
  | { ok: false; code: string; stale: boolean };

/** Payouts wait this long after shipping for the buyer's confirmation. */
export const RELEASE_AFTER_SHIPPING_MS = 14 * 24 * 60 * 60 * 1000;
/**
 * An order with nothing to send (digital items, services) is fulfilled at payment, and its shares
 * are held this long before they are paid out (docs/payments.md "Payout holds"): most disputes and
 * refunds come within days, and a share still held is simply never paid instead of taken back.
 */
export const DIGITAL_PAYOUT_HOLD_MS = 7 * 24 * 60 * 60 * 1000;

const refuse = (code: string, stale = false): OrderTransition => ({ ok: false, code, stale });

function go(
  state: OrderState,
  changes: Partial<OrderState>,
  effects: OrderEffect[],
  label: string,
): OrderTransition {
  return { ok: true, state: { ...state, ...changes }, effects, label };
}

const BOOKED: readonly OrderStatus[] = ['accepted', 'payment_intent_created'];

/** The booking still holds (not paid, not expired). */
export function isBooked(state: Pick<OrderState, 'status'>): boolean {
  return BOOKED.includes(state.status);
}

/** Paid for: the copies are the buyer's (or held for a deposit order). */
export function isPaidFor(state: Pick<OrderState, 'status'>): boolean {
  return (
    state.status === 'checkout_complete' || state.status === 'paid' || state.status === 'fulfilled'
  );
}

/** Whether the seller may cancel now: paid for, nothing shipped, payouts not released. */
export function canCancel(
  state: Pick<OrderState, 'status' | 'fulfilment'> & { dispute?: OrderState['dispute'] },
): boolean {
  return (
    (state.status === 'paid' || state.status === 'checkout_complete') &&
    state.fulfilment === 'none' &&
    // A disputed payment cannot be refunded (the bank decides): no cancel while it is open.
    state.dispute?.status !== 'open'
  );
}

export function canShip(state: Pick<OrderState, 'status' | 'fulfilment' | 'delivery'>): boolean {
  return state.status === 'paid' && state.delivery === 'delivery' && state.fulfilment === 'none';
}

export function canConfirmReceipt(
  state: Pick<OrderState, 'status' | 'fulfilment' | 'delivery'>,
): boolean {
  return (
    state.status === 'paid' &&
    (state.fulfilment === 'shipped' || (state.delivery === 'pickup' && state.fulfilment === 'none'))
  );
}

export function transition(state: OrderState, event: OrderEvent, now: Date): OrderTransition {
  switch (event.type) {
    case 'checkout_started':
      if (!isBooked(state)) {
        if (isPaidFor(state) || state.status === 'payment_intent_success') {
          return refuse('orders.errors.already_paid');
        }
        return refuse(
          state.status === 'cancelled'
            ? 'orders.errors.not_allowed'
            : 'checkout.errors.order_expired',
        );
      }
      if (now.getTime() >= Date.parse(state.booking_expires_at)) {
        return refuse('checkout.errors.order_expired');
      }
      return go(
        state,
        { status: 'payment_intent_created', payment_error: null },
        ['updated'],
        'payment_intent_created',
      );
    case 'payment_failed': {
      if (!isBooked(state) && !(state.status === 'checkout_complete' && state.balance_requested)) {
        return refuse('checkout.errors.paying', true);
      }
      const payments =
        event.payment === undefined
          ? state.payments
          : withPayment(state.payments, entryOf(event.payment, 'failed', null));
      if (state.payment_error === event.code && payments === state.payments) {
        return refuse('checkout.errors.paying', true);
      }
      return go(
        state,
        { payment_error: event.code, payments },
        state.status === 'checkout_complete' ? ['updated', 'notify_payment_due'] : ['updated'],
        'payment_failed',
      );
    }
    case 'payment_pending': {
      const payments = withPayment(state.payments, entryOf(event.payment, event.status, null));
      if (payments === state.payments) return refuse('checkout.errors.paying', true);
      // Nothing moves until the bank answers: the attempt is recorded, the order page shows it.
      return go(state, { payments }, ['updated'], 'resume');
    }
    case 'payment_succeeded': {
      const fact = event.payment;
      const known = state.payments.find(
        (entry) => entry.payment_intent_id === fact.payment_intent_id,
      );
      if (known !== undefined && (known.status === 'succeeded' || known.status === 'refunded')) {
        // Honour already running (a replay of its own payment resumes it), or done.
        if (state.status === 'payment_intent_success' && known.extra !== true) {
          return go(state, {}, ['honour'], 'resume');
        }
        return refuse('orders.errors.already_paid', true);
      }
      const paid = entryOf(fact, 'succeeded', now.toISOString());
      const over = state.status === 'cancelled' || state.status === 'payment_expired';
      const unasked = fact.kind === 'balance' && state.status !== 'checkout_complete';
      if (over || unasked || payerOf(state, fact.kind) !== undefined) {
        // Money the order did not ask for: a second payment of what was paid (two tabs, a payment
        // page left open, a balance charged twice), or money for an order that is over. Only it
        // is refunded; the order stays as it is.
        return go(
          state,
          { payments: withPayment(state.payments, { ...paid, extra: true }) },
          ['refund_extra', 'updated'],
          'extra_payment',
        );
      }
      const payments = withPayment(state.payments, paid);
      if (fact.kind === 'balance') {
        return go(
          state,
          {
            ...paidChanges(state, now),
            payment_error: null,
            balance_requested: false,
            payments,
          },
          paidEffects(state),
          'paid',
        );
      }
      if (isBooked(state) || state.status === 'order_expired') {
        // A payment after the booking expired is honoured if the copies can still be had.
        return go(
          state,
          { status: 'payment_intent_success', payment_error: null, payments },
          ['honour'],
          'payment_intent_success',
        );
      }
      // Paid for by a payment of another kind (a deposit order's full price): not asked for.
      return go(
        state,
        { payments: withPayment(state.payments, { ...paid, extra: true }) },
        ['refund_extra', 'updated'],
        'extra_payment',
      );
    }
    case 'honoured':
      if (state.status !== 'payment_intent_success')
        return refuse('orders.errors.not_allowed', true);
      if (state.payment_mode === 'deposit') {
        return go(
          state,
          { status: 'checkout_complete' },
          ['updated', 'notify_paid'],
          'checkout_complete',
        );
      }
      return go(state, paidChanges(state, now), paidEffects(state), 'paid');
    case 'not_honourable':
      if (state.status !== 'payment_intent_success')
        return refuse('orders.errors.not_allowed', true);
      return go(
        state,
        { status: 'payment_expired' },
        ['refund', 'updated', 'notify_expired'],
        'payment_expired',
      );
    case 'booking_expired':
      if (!isBooked(state)) return refuse('checkout.errors.order_expired', true);
      if (now.getTime() < Date.parse(state.booking_expires_at)) {
        return refuse('orders.errors.not_allowed');
      }
      return go(
        state,
        { status: 'order_expired' },
        // No money moved: the buyer's page shows it, nobody is notified.
        ['release_booking', 'expire_session', 'updated'],
        'order_expired',
      );
    case 'ship':
      if (state.status === 'paid' && state.fulfilment === 'shipped') {
        return refuse('orders.errors.not_allowed', true);
      }
      if (!canShip(state)) return refuse('orders.errors.not_allowed');
      return go(
        state,
        {
          fulfilment: 'shipped',
          release_at: new Date(now.getTime() + RELEASE_AFTER_SHIPPING_MS).toISOString(),
        },
        ['updated', 'notify_shipped', 'schedule_release'],
        'shipped',
      );
    case 'confirm_receipt':
      if (state.status === 'fulfilled') return refuse('orders.errors.not_allowed', true);
      if (!canConfirmReceipt(state)) return refuse('orders.errors.not_allowed');
      return go(
        state,
        { status: 'fulfilled', fulfilment: 'received' },
        ['payout', 'updated', 'notify_received'],
        'received',
      );
    case 'release_due':
      if (state.status === 'fulfilled' && state.delivery === 'none' && state.release_at !== null) {
        // A digital order's hold is over: its held shares go out (release_at cleared: a replay of
        // the timer finds nothing due). While a dispute is open they stay frozen.
        if (now.getTime() < Date.parse(state.release_at))
          return refuse('orders.errors.not_allowed');
        return go(state, { release_at: null }, ['payout', 'updated'], 'released');
      }
      if (
        state.status !== 'paid' ||
        state.release_at === null ||
        (state.fulfilment !== 'shipped' && state.delivery !== 'pickup')
      ) {
        return refuse('orders.errors.not_allowed', true);
      }
      if (now.getTime() < Date.parse(state.release_at)) return refuse('orders.errors.not_allowed');
      return go(state, { status: 'fulfilled' }, ['payout', 'updated'], 'released');
    case 'cancel':
      if (state.status === 'cancelled') return refuse('orders.errors.not_allowed', true);
      if (!canCancel(state)) return refuse('orders.errors.not_allowed');
      return go(
        state,
        { status: 'cancelled', cancel_reason: event.reason, balance_requested: false },
        // The copies come back in the same write as the status (functions/orders/cancel.ts), so a
        // refund never leaves them with the buyer; return_copies then finds nothing left to do.
        ['return_copies', 'refund', 'reverse_payouts', 'updated', 'notify_cancelled'],
        'cancelled',
      );
    case 'refunded': {
      const index = state.payments.findIndex(
        (entry) => entry.payment_intent_id === event.payment_intent_id,
      );
      const payment = state.payments[index];
      if (payment === undefined || payment.status === 'refunded') {
        return refuse('orders.errors.not_allowed', true);
      }
      const payments = [...state.payments];
      payments[index] = { ...payment, status: 'refunded', refunded: payment.amount };
      if (payment.extra === true || payment.status !== 'succeeded' || !isPaidFor(state)) {
        // An extra payment (or one of an order that is over) refunded: recorded, nothing else.
        return go(state, { payments }, ['updated'], 'resume');
      }
      return go(
        state,
        {
          status: 'cancelled',
          cancel_reason: state.cancel_reason,
          balance_requested: false,
          payments,
        },
        // Refunded outside (Stripe's dashboard): the order's other payments (a deposit order's
        // second charge) are refunded too.
        ['return_copies', 'refund', 'reverse_payouts', 'updated', 'notify_cancelled'],
        'refunded',
      );
    }
    case 'dispute': {
      const incoming = event.dispute;
      const current = state.dispute ?? null;
      if (current !== null && current.id === incoming.id) {
        if (current.status !== 'open') return refuse('orders.errors.not_allowed', true);
        if (incoming.status === 'open') {
          // Stripe's status or deadline moved (evidence submitted, under review): recorded.
          if (
            incoming.stripe_status === current.stripe_status &&
            incoming.evidence_due_by === current.evidence_due_by
          ) {
            return refuse('orders.errors.not_allowed', true);
          }
          return go(
            state,
            { dispute: { ...incoming, opened_at: current.opened_at } },
            ['updated'],
            'resume',
          );
        }
      } else if (incoming.status !== 'open') {
        // Decided before it was seen open (events out of order): opened and decided at once.
        return disputeDecided(state, { ...incoming, opened_at: incoming.opened_at }, true);
      }
      if (current === null || current.id !== incoming.id) {
        return go(
          state,
          { dispute: incoming },
          ['freeze_payouts', 'claw_back', 'updated', 'notify_dispute'],
          'disputed',
        );
      }
      return disputeDecided(state, { ...incoming, opened_at: current.opened_at }, false);
    }
    case 'ready':
      if (
        state.payment_mode === 'deposit' &&
        (state.status === 'paid' || state.status === 'fulfilled')
      ) {
        // The balance is paid: a repeated "ready" (a double click) is a replay.
        return refuse('orders.errors.not_allowed', true);
      }
      if (state.status !== 'checkout_complete' || state.payment_mode !== 'deposit') {
        return refuse('orders.errors.not_allowed');
      }
      if (state.balance_requested && state.payment_error === null) {
        return refuse('orders.errors.not_allowed', true);
      }
      return go(
        state,
        { balance_requested: true, payment_error: null },
        ['charge_balance', 'updated'],
        'balance_requested',
      );
  }
}

/**
 * Paid in full: an order with nothing to send (digital items, services) is fulfilled at once and
 * its payouts go out; a delivered one waits in `paid` for the seller to ship; a picked-up one
 * waits for the buyer to confirm collection, or 14 days (nothing is shipped to start the clock).
 */
function paidChanges(state: OrderState, now: Date): Pick<OrderState, 'status' | 'release_at'> {
  if (state.delivery === 'none') {
    return {
      status: 'fulfilled',
      release_at: new Date(now.getTime() + DIGITAL_PAYOUT_HOLD_MS).toISOString(),
    };
  }
  if (state.delivery === 'pickup') {
    return {
      status: 'paid',
      release_at: new Date(now.getTime() + RELEASE_AFTER_SHIPPING_MS).toISOString(),
    };
  }
  return { status: 'paid', release_at: state.release_at };
}

function paidEffects(state: OrderState): OrderEffect[] {
  if (state.delivery === 'none') return ['updated', 'notify_paid', 'schedule_release'];
  if (state.delivery === 'pickup') return ['updated', 'notify_paid', 'schedule_release'];
  return ['updated', 'notify_paid'];
}

function entryOf(
  fact: PaymentFact,
  status: StoredPayment['status'],
  paidAt: string | null,
): StoredPayment {
  return {
    kind: fact.kind,
    amount: fact.amount,
    status,
    payment_intent_id: fact.payment_intent_id,
    charge_id: fact.charge_id,
    receipt_url: fact.receipt_url,
    paid_at: paidAt,
    refunded: 0,
  };
}

/**
 * The payments with `entry` recorded (by PaymentIntent): a payment once succeeded or refunded
 * stays so; an earlier state is replaced. The same array when nothing changes.
 */
export function withPayment(
  payments: readonly StoredPayment[],
  entry: StoredPayment,
): readonly StoredPayment[] {
  const index = payments.findIndex(
    (stored) => stored.payment_intent_id === entry.payment_intent_id,
  );
  const existing = index === -1 ? undefined : payments[index];
  if (existing === undefined) return [...payments, entry];
  if (existing.status === 'succeeded' || existing.status === 'refunded') return payments;
  if (existing.status === entry.status && existing.charge_id === entry.charge_id) return payments;
  const next = [...payments];
  next[index] = { ...entry, paid_at: existing.paid_at ?? entry.paid_at };
  return next;
}

/** The payment that paid `kind` of the order (not an extra one), if any. */
export function payerOf(
  state: Pick<OrderState, 'payments'>,
  kind: StoredPayment['kind'],
): StoredPayment | undefined {
  return state.payments.find(
    (entry) =>
      entry.kind === kind &&
      entry.extra !== true &&
      (entry.status === 'succeeded' || entry.status === 'refunded'),
  );
}

/**
 * A dispute decided: won, the money stays and the frozen or clawed-back shares are due again;
 * lost, the bank took the money back, so the order is cancelled without a refund of ours (the
 * copies back, what was paid out taken back, both parties told). `fresh`: never seen open (its
 * shares were never frozen).
 */
function disputeDecided(
  state: OrderState,
  dispute: StoredDispute,
  fresh: boolean,
): OrderTransition {
  if (dispute.status === 'won') {
    return go(
      state,
      { dispute },
      fresh ? ['updated', 'notify_dispute'] : ['unfreeze_payouts', 'updated', 'notify_dispute'],
      'dispute_won',
    );
  }
  if (!isPaidFor(state)) {
    // The order is over already (cancelled and refunded): the decision is recorded.
    return go(state, { dispute }, ['updated', 'notify_dispute'], 'dispute_lost');
  }
  return go(
    state,
    { status: 'cancelled', cancel_reason: 'dispute_lost', balance_requested: false, dispute },
    ['return_copies', 'reverse_payouts', 'updated', 'notify_cancelled', 'notify_dispute'],
    'dispute_lost',
  );
}
