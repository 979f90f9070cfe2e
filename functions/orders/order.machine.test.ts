import { describe, expect, it } from 'vitest';
import {
  DELIVERY_MODES,
  FULFILMENT_STATES,
  ORDER_STATUSES,
  type OrderStatus,
} from '../../shared/schemas/orders';
import {
  RELEASE_AFTER_SHIPPING_MS,
  canCancel,
  canConfirmReceipt,
  canShip,
  isBooked,
  isPaidFor,
  transition,
  type OrderEffect,
  type OrderEvent,
  type OrderState,
  type PaymentFact,
  type StoredDispute,
  type StoredPayment,
} from './order.machine';

const NOW = new Date('2026-11-25T10:00:00.000Z');
/** The booking still runs (booked a minute ago, for 5 minutes). */
const BOOKED_UNTIL = '2026-11-25T10:04:00.000Z';
const ONE_MS_LATER = '2026-11-25T10:00:00.001Z';
const ONE_MS_AGO = '2026-11-25T09:59:59.999Z';
const ONE_MS_AGO_AT = ONE_MS_AGO;
/** NOW + 14 days, written out so that a wrong delay fails. */
const FOURTEEN_DAYS_LATER = '2026-12-09T10:00:00.000Z';
/** NOW + 7 days (a digital order's payout hold). */
const SEVEN_DAYS_LATER = '2026-12-02T10:00:00.000Z';

function state(changes: Partial<OrderState> = {}): OrderState {
  return {
    status: 'accepted',
    payment_mode: 'fullprice',
    delivery: 'delivery',
    fulfilment: 'none',
    booking_expires_at: BOOKED_UNTIL,
    release_at: null,
    balance_requested: false,
    payment_error: null,
    cancel_reason: null,
    payments: [],
    ...changes,
  };
}

/** What Stripe says of a payment of 25.00 (`kind`, PaymentIntent `id`). */
function fact(kind: StoredPayment['kind'], id: string): PaymentFact {
  return { kind, payment_intent_id: id, amount: 2500, charge_id: `ch_${id}`, receipt_url: null };
}

/** That payment as the order records it. */
function entry(
  kind: StoredPayment['kind'],
  id: string,
  changes: Partial<StoredPayment> = {},
): StoredPayment {
  return {
    ...fact(kind, id),
    status: 'succeeded',
    paid_at: NOW.toISOString(),
    refunded: 0,
    ...changes,
  };
}

/** Paid with pi_A (the price) a while ago. */
const PAID_A = [entry('full', 'pi_A', { paid_at: ONE_MS_AGO_AT })];
/** A deposit order's deposits paid with pi_D. */
const DEPOSIT_D = [entry('deposit', 'pi_D', { paid_at: ONE_MS_AGO_AT })];

const accepted = state();
const declined = state({ payment_error: 'card_declined' });
const intentCreated = state({ status: 'payment_intent_created' });
const intentDeclined = { ...intentCreated, payment_error: 'card_declined' };
const honouring = state({ status: 'payment_intent_success', payments: PAID_A });
const expired = state({ status: 'order_expired', booking_expires_at: ONE_MS_AGO });
const paymentExpired = state({
  status: 'payment_expired',
  booking_expires_at: ONE_MS_AGO,
  payments: [entry('full', 'pi_A', { status: 'refunded', refunded: 2500 })],
});
const paid = state({ status: 'paid', payments: PAID_A });
const pickupPaid = state({ status: 'paid', delivery: 'pickup', payments: PAID_A });
const shipped = state({
  status: 'paid',
  fulfilment: 'shipped',
  release_at: FOURTEEN_DAYS_LATER,
  payments: PAID_A,
});
const received = state({ status: 'fulfilled', fulfilment: 'received', payments: PAID_A });
const released = state({
  status: 'fulfilled',
  fulfilment: 'shipped',
  release_at: ONE_MS_AGO,
  payments: PAID_A,
});
const digital = state({ status: 'fulfilled', delivery: 'none', payments: PAID_A });
const cancelled = state({
  status: 'cancelled',
  cancel_reason: 'Out of stock',
  payments: [entry('full', 'pi_A', { paid_at: ONE_MS_AGO_AT, status: 'refunded', refunded: 2500 })],
});
const deposit = state({ payment_mode: 'deposit' });
const depositComplete = state({
  status: 'checkout_complete',
  payment_mode: 'deposit',
  payments: DEPOSIT_D,
});
const balanceAsked = { ...depositComplete, balance_requested: true };
const balanceDeclined = { ...balanceAsked, payment_error: 'card_declined' };

const CANCEL_EFFECTS: OrderEffect[] = [
  'return_copies',
  'refund',
  'reverse_payouts',
  'updated',
  'notify_cancelled',
];
const REFUND_EFFECTS: OrderEffect[] = [
  'return_copies',
  'refund',
  'reverse_payouts',
  'updated',
  'notify_cancelled',
];
// A booking that ran out moved no money: nobody is notified.
const EXPIRE_EFFECTS: OrderEffect[] = ['release_booking', 'expire_session', 'updated'];

/** Applied: the next status, the exact effects and label, and every field that changes. */
type Applied = Partial<OrderState> & { status: OrderStatus; effects: OrderEffect[]; label: string };
type Refused = { refused: string; stale: boolean };
type Row = [name: string, from: OrderState, event: OrderEvent, expected: Applied | Refused];

/** The price paid with pi_A, and the same payment recorded. */
const full: OrderEvent = { type: 'payment_succeeded', payment: fact('full', 'pi_A') };
const fullPaid = [entry('full', 'pi_A')];
/** Another payment of the price (another tab, a payment page left open): pi_B. */
const fullAgain: OrderEvent = { type: 'payment_succeeded', payment: fact('full', 'pi_B') };
const extraB = entry('full', 'pi_B', { extra: true });
const depositEvent: OrderEvent = { type: 'payment_succeeded', payment: fact('deposit', 'pi_D') };
const balance: OrderEvent = { type: 'payment_succeeded', payment: fact('balance', 'pi_E') };
const balancePaid = [...DEPOSIT_D, entry('balance', 'pi_E')];
const refundedA: OrderEvent = { type: 'refunded', payment_intent_id: 'pi_A' };
const REFUNDED = { status: 'refunded', refunded: 2500 } as const;
const pendingA: OrderEvent = {
  type: 'payment_pending',
  payment: fact('full', 'pi_A'),
  status: 'requires_action',
};
const DISPUTE_OPEN: StoredDispute = {
  id: 'du_1',
  status: 'open',
  stripe_status: 'needs_response',
  reason: 'fraudulent',
  amount: 2500,
  currency: 'EUR',
  evidence_due_by: SEVEN_DAYS_LATER,
  opened_at: NOW.toISOString(),
  closed_at: null,
};
const DISPUTE_WON: StoredDispute = {
  ...DISPUTE_OPEN,
  status: 'won',
  stripe_status: 'won',
  closed_at: NOW.toISOString(),
};
const DISPUTE_LOST: StoredDispute = { ...DISPUTE_WON, status: 'lost', stripe_status: 'lost' };
const EXTRA = { effects: ['refund_extra', 'updated'] as OrderEffect[], label: 'extra_payment' };
const declinedEvent = { type: 'payment_failed', code: 'card_declined' } as const;
const shipEvent = { type: 'ship', carrier: 'UPS', tracking: '1Z999' } as const;

const rows: Row[] = [
  // checkout_started: a payment page (Checkout or the saved card) while the booking holds.
  [
    'checkout started while booked',
    accepted,
    { type: 'checkout_started' },
    { status: 'payment_intent_created', effects: ['updated'], label: 'payment_intent_created' },
  ],
  [
    'checkout started after a declined card clears the error',
    declined,
    { type: 'checkout_started' },
    {
      status: 'payment_intent_created',
      payment_error: null,
      effects: ['updated'],
      label: 'payment_intent_created',
    },
  ],
  [
    'a second payment page while the first is open',
    intentDeclined,
    { type: 'checkout_started' },
    {
      status: 'payment_intent_created',
      payment_error: null,
      effects: ['updated'],
      label: 'payment_intent_created',
    },
  ],
  [
    'checkout started at the booking end',
    state({ booking_expires_at: NOW.toISOString() }),
    { type: 'checkout_started' },
    { refused: 'checkout.errors.order_expired', stale: false },
  ],
  [
    'checkout started after the booking end',
    state({ status: 'payment_intent_created', booking_expires_at: ONE_MS_AGO }),
    { type: 'checkout_started' },
    { refused: 'checkout.errors.order_expired', stale: false },
  ],
  [
    'checkout started on an expired order',
    expired,
    { type: 'checkout_started' },
    { refused: 'checkout.errors.order_expired', stale: false },
  ],
  [
    'checkout started on a refunded late payment',
    paymentExpired,
    { type: 'checkout_started' },
    { refused: 'checkout.errors.order_expired', stale: false },
  ],
  [
    'checkout started on a paid order',
    paid,
    { type: 'checkout_started' },
    { refused: 'orders.errors.already_paid', stale: false },
  ],
  [
    'checkout started on a deposit paid',
    depositComplete,
    { type: 'checkout_started' },
    { refused: 'orders.errors.already_paid', stale: false },
  ],
  [
    'checkout started on a fulfilled order',
    received,
    { type: 'checkout_started' },
    { refused: 'orders.errors.already_paid', stale: false },
  ],

  // payment_failed: recorded while booked, or for a requested balance.
  [
    'a declined card while booked',
    accepted,
    declinedEvent,
    {
      status: 'accepted',
      payment_error: 'card_declined',
      effects: ['updated'],
      label: 'payment_failed',
    },
  ],
  [
    'another failure replaces the code',
    intentDeclined,
    { type: 'payment_failed', code: 'expired_card' },
    {
      status: 'payment_intent_created',
      payment_error: 'expired_card',
      effects: ['updated'],
      label: 'payment_failed',
    },
  ],
  [
    'a declined attempt is recorded with its intent',
    intentCreated,
    { type: 'payment_failed', code: 'card_declined', payment: fact('full', 'pi_A') },
    {
      status: 'payment_intent_created',
      payment_error: 'card_declined',
      payments: [entry('full', 'pi_A', { status: 'failed', paid_at: null })],
      effects: ['updated'],
      label: 'payment_failed',
    },
  ],
  [
    'the same failure again',
    intentDeclined,
    declinedEvent,
    { refused: 'checkout.errors.paying', stale: true },
  ],
  [
    'the balance charge declined',
    balanceAsked,
    declinedEvent,
    {
      status: 'checkout_complete',
      payment_error: 'card_declined',
      effects: ['updated', 'notify_payment_due'],
      label: 'payment_failed',
    },
  ],
  [
    'the balance charge declined again',
    balanceDeclined,
    declinedEvent,
    { refused: 'checkout.errors.paying', stale: true },
  ],
  [
    'a failure on a deposit order whose balance was not asked',
    depositComplete,
    declinedEvent,
    { refused: 'checkout.errors.paying', stale: true },
  ],
  [
    'a failure while the payment is honoured',
    honouring,
    declinedEvent,
    { refused: 'checkout.errors.paying', stale: true },
  ],
  [
    'a failure after the booking expired',
    expired,
    declinedEvent,
    { refused: 'checkout.errors.paying', stale: true },
  ],
  ['a failure once paid', paid, declinedEvent, { refused: 'checkout.errors.paying', stale: true }],

  // payment_succeeded (full or deposit): the first payment of what is due honours the booking.
  [
    'paid with the saved card while booked',
    declined,
    full,
    {
      status: 'payment_intent_success',
      payment_error: null,
      payments: fullPaid,
      effects: ['honour'],
      label: 'payment_intent_success',
    },
  ],
  [
    'paid through Checkout',
    intentCreated,
    full,
    {
      status: 'payment_intent_success',
      payments: fullPaid,
      effects: ['honour'],
      label: 'payment_intent_success',
    },
  ],
  [
    'paid after a declined attempt of the same intent',
    { ...intentDeclined, payments: [entry('full', 'pi_A', { status: 'failed', paid_at: null })] },
    full,
    {
      status: 'payment_intent_success',
      payment_error: null,
      payments: fullPaid,
      effects: ['honour'],
      label: 'payment_intent_success',
    },
  ],
  [
    'a deposit paid',
    { ...deposit, status: 'payment_intent_created' },
    depositEvent,
    {
      status: 'payment_intent_success',
      payments: [entry('deposit', 'pi_D')],
      effects: ['honour'],
      label: 'payment_intent_success',
    },
  ],
  [
    'a payment after the booking expired is honoured if it can be',
    expired,
    full,
    {
      status: 'payment_intent_success',
      payments: fullPaid,
      effects: ['honour'],
      label: 'payment_intent_success',
    },
  ],
  [
    'the payment replayed while honouring resumes the honour',
    honouring,
    full,
    { status: 'payment_intent_success', effects: ['honour'], label: 'resume' },
  ],
  [
    'another payment while honouring is extra, never a second honour',
    honouring,
    fullAgain,
    { status: 'payment_intent_success', payments: [...PAID_A, extraB], ...EXTRA },
  ],
  [
    'the payment replayed once paid',
    paid,
    full,
    { refused: 'orders.errors.already_paid', stale: true },
  ],
  [
    'a second payment once paid (another tab) is extra: only it is refunded',
    paid,
    fullAgain,
    { status: 'paid', payments: [...PAID_A, extraB], ...EXTRA },
  ],
  [
    'the extra payment replayed',
    { ...paid, payments: [...PAID_A, extraB] },
    fullAgain,
    { refused: 'orders.errors.already_paid', stale: true },
  ],
  [
    'the deposit replayed once honoured',
    depositComplete,
    { type: 'payment_succeeded', payment: fact('deposit', 'pi_D') },
    { refused: 'orders.errors.already_paid', stale: true },
  ],
  [
    'the payment replayed once fulfilled',
    digital,
    full,
    { refused: 'orders.errors.already_paid', stale: true },
  ],
  [
    'a payment for a cancelled order is refunded',
    cancelled,
    fullAgain,
    { status: 'cancelled', payments: [...cancelled.payments, extraB], ...EXTRA },
  ],
  [
    'a payment for a late payment already refunded is refunded',
    paymentExpired,
    fullAgain,
    { status: 'payment_expired', payments: [...paymentExpired.payments, extraB], ...EXTRA },
  ],
  [
    'a balance charged while the seller cancelled is refunded',
    { ...cancelled, payment_mode: 'deposit', balance_requested: false, payments: DEPOSIT_D },
    balance,
    {
      status: 'cancelled',
      payments: [...DEPOSIT_D, entry('balance', 'pi_E', { extra: true })],
      ...EXTRA,
    },
  ],
  [
    'checkout on an order being honoured: already paid',
    honouring,
    { type: 'checkout_started' },
    { refused: 'orders.errors.already_paid', stale: false },
  ],
  [
    'checkout on a cancelled order: not allowed',
    cancelled,
    { type: 'checkout_started' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'ready again on a deposit order whose balance is paid: a replay',
    { ...paid, payment_mode: 'deposit' },
    { type: 'ready' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // payment_succeeded (balance): a deposit order's balance.
  [
    'the balance paid',
    balanceAsked,
    balance,
    {
      status: 'paid',
      balance_requested: false,
      payments: balancePaid,
      effects: ['updated', 'notify_paid'],
      label: 'paid',
    },
  ],
  [
    'the balance paid after a decline',
    balanceDeclined,
    balance,
    {
      status: 'paid',
      balance_requested: false,
      payment_error: null,
      payments: balancePaid,
      effects: ['updated', 'notify_paid'],
      label: 'paid',
    },
  ],
  [
    'the balance paid, nothing to send: fulfilled, its payouts held 7 days',
    { ...balanceAsked, delivery: 'none' },
    balance,
    {
      status: 'fulfilled',
      balance_requested: false,
      release_at: SEVEN_DAYS_LATER,
      payments: balancePaid,
      effects: ['updated', 'notify_paid', 'schedule_release'],
      label: 'paid',
    },
  ],
  [
    'the balance replayed once paid',
    { ...paid, payment_mode: 'deposit', payments: balancePaid },
    balance,
    { refused: 'orders.errors.already_paid', stale: true },
  ],
  [
    'the balance paid twice (the seller charged it, the buyer paid it on the order page)',
    { ...paid, payment_mode: 'deposit', payments: balancePaid },
    { type: 'payment_succeeded', payment: fact('balance', 'pi_F') },
    {
      status: 'paid',
      payments: [...balancePaid, entry('balance', 'pi_F', { extra: true })],
      ...EXTRA,
    },
  ],
  [
    'a balance before the deposit is money not asked for',
    deposit,
    balance,
    { status: 'accepted', payments: [entry('balance', 'pi_E', { extra: true })], ...EXTRA },
  ],

  // payment_pending: an attempt waits on the bank or is processing.
  [
    'a payment waits on the bank',
    intentCreated,
    pendingA,
    {
      status: 'payment_intent_created',
      payments: [entry('full', 'pi_A', { status: 'requires_action', paid_at: null })],
      effects: ['updated'],
      label: 'resume',
    },
  ],
  [
    'the same attempt still waits (a second click)',
    {
      ...intentCreated,
      payments: [entry('full', 'pi_A', { status: 'requires_action', paid_at: null })],
    },
    pendingA,
    { refused: 'checkout.errors.paying', stale: true },
  ],
  [
    'a pending word after the payment succeeded changes nothing',
    paid,
    pendingA,
    { refused: 'checkout.errors.paying', stale: true },
  ],

  // honoured: the copies changed owner.
  [
    'honoured, full price, delivered',
    honouring,
    { type: 'honoured' },
    { status: 'paid', effects: ['updated', 'notify_paid'], label: 'paid' },
  ],
  [
    'honoured, full price, picked up: the payouts wait 14 days for the collection',
    { ...honouring, delivery: 'pickup' },
    { type: 'honoured' },
    {
      status: 'paid',
      release_at: '2026-12-09T10:00:00.000Z',
      effects: ['updated', 'notify_paid', 'schedule_release'],
      label: 'paid',
    },
  ],
  [
    'honoured, full price, nothing to send: fulfilled, its payouts held 7 days',
    { ...honouring, delivery: 'none' },
    { type: 'honoured' },
    {
      status: 'fulfilled',
      release_at: SEVEN_DAYS_LATER,
      effects: ['updated', 'notify_paid', 'schedule_release'],
      label: 'paid',
    },
  ],
  [
    'honoured, deposit',
    { ...honouring, payment_mode: 'deposit' },
    { type: 'honoured' },
    {
      status: 'checkout_complete',
      effects: ['updated', 'notify_paid'],
      label: 'checkout_complete',
    },
  ],
  [
    'honoured, deposit, nothing to send: no payout before the balance',
    { ...honouring, payment_mode: 'deposit', delivery: 'none' },
    { type: 'honoured' },
    {
      status: 'checkout_complete',
      effects: ['updated', 'notify_paid'],
      label: 'checkout_complete',
    },
  ],
  [
    'honoured replayed once paid',
    paid,
    { type: 'honoured' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'honoured replayed once the deposit is in',
    depositComplete,
    { type: 'honoured' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'honoured before any payment',
    intentCreated,
    { type: 'honoured' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // not_honourable: a late payment whose copies are gone.
  [
    'a late payment that cannot be honoured is refunded',
    honouring,
    { type: 'not_honourable' },
    {
      status: 'payment_expired',
      effects: ['refund', 'updated', 'notify_expired'],
      label: 'payment_expired',
    },
  ],
  [
    'not honourable replayed',
    paymentExpired,
    { type: 'not_honourable' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'not honourable once paid',
    paid,
    { type: 'not_honourable' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // booking_expired: the 5 minutes are over.
  [
    'the booking timer fires early',
    state({ booking_expires_at: ONE_MS_LATER }),
    { type: 'booking_expired' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'the booking ends',
    state({ booking_expires_at: NOW.toISOString() }),
    { type: 'booking_expired' },
    { status: 'order_expired', effects: EXPIRE_EFFECTS, label: 'order_expired' },
  ],
  [
    'the booking ends with a payment page open',
    state({ status: 'payment_intent_created', booking_expires_at: ONE_MS_AGO }),
    { type: 'booking_expired' },
    { status: 'order_expired', effects: EXPIRE_EFFECTS, label: 'order_expired' },
  ],
  [
    'the booking end replayed',
    expired,
    { type: 'booking_expired' },
    { refused: 'checkout.errors.order_expired', stale: true },
  ],
  [
    'the booking ends while the payment is honoured',
    { ...honouring, booking_expires_at: ONE_MS_AGO },
    { type: 'booking_expired' },
    { refused: 'checkout.errors.order_expired', stale: true },
  ],
  [
    'the booking ends once paid',
    { ...paid, booking_expires_at: ONE_MS_AGO },
    { type: 'booking_expired' },
    { refused: 'checkout.errors.order_expired', stale: true },
  ],

  // ship: a paid, delivered order, not shipped yet.
  [
    'shipped: payouts released in 14 days',
    paid,
    shipEvent,
    {
      status: 'paid',
      fulfilment: 'shipped',
      release_at: FOURTEEN_DAYS_LATER,
      effects: ['updated', 'notify_shipped', 'schedule_release'],
      label: 'shipped',
    },
  ],
  ['ship replayed', shipped, shipEvent, { refused: 'orders.errors.not_allowed', stale: true }],
  ['ship a pick-up', pickupPaid, shipEvent, { refused: 'orders.errors.not_allowed', stale: false }],
  [
    'ship before the balance is paid',
    balanceAsked,
    shipEvent,
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'ship before payment',
    accepted,
    shipEvent,
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'ship once received',
    received,
    shipEvent,
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'ship a cancelled order',
    cancelled,
    shipEvent,
    { refused: 'orders.errors.not_allowed', stale: false },
  ],

  // confirm_receipt: the buyer has the item.
  [
    'receipt confirmed after shipping',
    shipped,
    { type: 'confirm_receipt' },
    {
      status: 'fulfilled',
      fulfilment: 'received',
      effects: ['payout', 'updated', 'notify_received'],
      label: 'received',
    },
  ],
  [
    'a pick-up collected',
    pickupPaid,
    { type: 'confirm_receipt' },
    {
      status: 'fulfilled',
      fulfilment: 'received',
      effects: ['payout', 'updated', 'notify_received'],
      label: 'received',
    },
  ],
  [
    'receipt confirmed before shipping',
    paid,
    { type: 'confirm_receipt' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'a pick-up collected before the balance is paid',
    { ...depositComplete, delivery: 'pickup' },
    { type: 'confirm_receipt' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'receipt confirmed on a cancelled order',
    cancelled,
    { type: 'confirm_receipt' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'receipt confirmed twice',
    received,
    { type: 'confirm_receipt' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'receipt confirmed after the payouts were released',
    released,
    { type: 'confirm_receipt' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // release_due: 14 days after shipping without the buyer.
  [
    'the release timer fires early',
    { ...shipped, release_at: ONE_MS_LATER },
    { type: 'release_due' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'released at release_at',
    { ...shipped, release_at: NOW.toISOString() },
    { type: 'release_due' },
    { status: 'fulfilled', effects: ['payout', 'updated'], label: 'released' },
  ],
  [
    'released after release_at',
    { ...shipped, release_at: ONE_MS_AGO },
    { type: 'release_due' },
    { status: 'fulfilled', effects: ['payout', 'updated'], label: 'released' },
  ],
  [
    'release due after the buyer confirmed',
    received,
    { type: 'release_due' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'release due on an order not shipped',
    paid,
    { type: 'release_due' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'a pick-up order released 14 days after payment, the buyer silent',
    { ...paid, delivery: 'pickup', release_at: ONE_MS_AGO },
    { type: 'release_due' },
    { status: 'fulfilled', effects: ['payout', 'updated'], label: 'released' },
  ],
  [
    'release due after a cancellation',
    cancelled,
    { type: 'release_due' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    "a digital order's payout hold over: its held shares go out",
    { ...digital, release_at: ONE_MS_AGO },
    { type: 'release_due' },
    { status: 'fulfilled', release_at: null, effects: ['payout', 'updated'], label: 'released' },
  ],
  [
    "a digital order's hold timer fires early",
    { ...digital, release_at: ONE_MS_LATER },
    { type: 'release_due' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    "a digital order's hold released already: a replay",
    { ...digital, release_at: null },
    { type: 'release_due' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // dispute: the buyer's bank disputes the payment (a chargeback).
  [
    'a dispute opened on a paid order: payouts frozen, paid ones taken back, both told',
    paid,
    { type: 'dispute', dispute: DISPUTE_OPEN },
    {
      status: 'paid',
      dispute: DISPUTE_OPEN,
      effects: ['freeze_payouts', 'claw_back', 'updated', 'notify_dispute'],
      label: 'disputed',
    },
  ],
  [
    'the same dispute again (a redelivered event)',
    { ...paid, dispute: DISPUTE_OPEN },
    { type: 'dispute', dispute: DISPUTE_OPEN },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    "the dispute's evidence submitted: Stripe's status recorded",
    { ...paid, dispute: DISPUTE_OPEN },
    { type: 'dispute', dispute: { ...DISPUTE_OPEN, stripe_status: 'under_review' } },
    {
      status: 'paid',
      dispute: { ...DISPUTE_OPEN, stripe_status: 'under_review' },
      effects: ['updated'],
      label: 'resume',
    },
  ],
  [
    'a dispute won: the frozen and taken-back shares are due again',
    { ...digital, dispute: DISPUTE_OPEN },
    { type: 'dispute', dispute: DISPUTE_WON },
    {
      status: 'fulfilled',
      dispute: DISPUTE_WON,
      effects: ['unfreeze_payouts', 'updated', 'notify_dispute'],
      label: 'dispute_won',
    },
  ],
  [
    'a dispute lost: the order is cancelled without a refund of ours, the copies back',
    { ...digital, dispute: DISPUTE_OPEN },
    { type: 'dispute', dispute: DISPUTE_LOST },
    {
      status: 'cancelled',
      cancel_reason: 'dispute_lost',
      dispute: DISPUTE_LOST,
      effects: [
        'return_copies',
        'reverse_payouts',
        'updated',
        'notify_cancelled',
        'notify_dispute',
      ],
      label: 'dispute_lost',
    },
  ],
  [
    'a dispute decided before it was seen open (events out of order): lost at once',
    shipped,
    { type: 'dispute', dispute: DISPUTE_LOST },
    {
      status: 'cancelled',
      cancel_reason: 'dispute_lost',
      dispute: DISPUTE_LOST,
      effects: [
        'return_copies',
        'reverse_payouts',
        'updated',
        'notify_cancelled',
        'notify_dispute',
      ],
      label: 'dispute_lost',
    },
  ],
  [
    'a decided dispute told again',
    { ...digital, dispute: DISPUTE_WON },
    { type: 'dispute', dispute: DISPUTE_LOST },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'the seller cannot cancel while the payment is disputed',
    { ...paid, dispute: DISPUTE_OPEN },
    { type: 'cancel', reason: null },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],

  // cancel: the seller, before shipping.
  [
    'the seller cancels before shipping',
    paid,
    { type: 'cancel', reason: 'Damaged in stock' },
    {
      status: 'cancelled',
      cancel_reason: 'Damaged in stock',
      effects: CANCEL_EFFECTS,
      label: 'cancelled',
    },
  ],
  [
    'the seller cancels a pick-up without a reason',
    { ...pickupPaid, cancel_reason: 'earlier reason' },
    { type: 'cancel', reason: null },
    { status: 'cancelled', cancel_reason: null, effects: CANCEL_EFFECTS, label: 'cancelled' },
  ],
  [
    'the seller cancels a deposit order after a declined balance',
    balanceDeclined,
    { type: 'cancel', reason: 'No answer' },
    {
      status: 'cancelled',
      cancel_reason: 'No answer',
      balance_requested: false,
      effects: CANCEL_EFFECTS,
      label: 'cancelled',
    },
  ],
  [
    'cancel after shipping',
    shipped,
    { type: 'cancel', reason: null },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'cancel once fulfilled',
    digital,
    { type: 'cancel', reason: null },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'cancel before payment',
    intentCreated,
    { type: 'cancel', reason: null },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'cancel while the payment is honoured',
    honouring,
    { type: 'cancel', reason: null },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'cancel replayed',
    cancelled,
    { type: 'cancel', reason: 'Out of stock' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // refunded: a payment refunded in full from outside (Stripe's dashboard).
  [
    'refunded once paid',
    paid,
    refundedA,
    {
      status: 'cancelled',
      payments: [entry('full', 'pi_A', { paid_at: ONE_MS_AGO_AT, ...REFUNDED })],
      effects: REFUND_EFFECTS,
      label: 'refunded',
    },
  ],
  [
    'the deposit refunded with the balance asked',
    balanceAsked,
    { type: 'refunded', payment_intent_id: 'pi_D' },
    {
      status: 'cancelled',
      balance_requested: false,
      payments: [entry('deposit', 'pi_D', { paid_at: ONE_MS_AGO_AT, ...REFUNDED })],
      effects: REFUND_EFFECTS,
      label: 'refunded',
    },
  ],
  [
    'refunded once fulfilled',
    released,
    refundedA,
    {
      status: 'cancelled',
      payments: [entry('full', 'pi_A', { paid_at: ONE_MS_AGO_AT, ...REFUNDED })],
      effects: REFUND_EFFECTS,
      label: 'refunded',
    },
  ],
  [
    'an extra payment refunded: recorded, the order stays paid',
    { ...paid, payments: [...PAID_A, extraB] },
    { type: 'refunded', payment_intent_id: 'pi_B' },
    {
      status: 'paid',
      payments: [...PAID_A, { ...extraB, ...REFUNDED }],
      effects: ['updated'],
      label: 'resume',
    },
  ],
  [
    'the extra payment refund comes back',
    { ...paid, payments: [...PAID_A, { ...extraB, ...REFUNDED }] },
    { type: 'refunded', payment_intent_id: 'pi_B' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'a refund of a payment the order does not know',
    paid,
    { type: 'refunded', payment_intent_id: 'pi_Z' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'the refund of a cancellation comes back',
    cancelled,
    refundedA,
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'the refund of a late payment comes back',
    paymentExpired,
    refundedA,
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'refunded before payment',
    accepted,
    refundedA,
    { refused: 'orders.errors.not_allowed', stale: true },
  ],

  // ready: the seller asks a deposit order's balance.
  [
    'ready: the balance is charged',
    depositComplete,
    { type: 'ready' },
    {
      status: 'checkout_complete',
      balance_requested: true,
      effects: ['charge_balance', 'updated'],
      label: 'balance_requested',
    },
  ],
  [
    'ready again after a declined balance',
    balanceDeclined,
    { type: 'ready' },
    {
      status: 'checkout_complete',
      payment_error: null,
      effects: ['charge_balance', 'updated'],
      label: 'balance_requested',
    },
  ],
  [
    'ready replayed',
    balanceAsked,
    { type: 'ready' },
    { refused: 'orders.errors.not_allowed', stale: true },
  ],
  [
    'ready on a full-price order',
    paid,
    { type: 'ready' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
  [
    'ready before the deposit',
    { ...deposit, status: 'payment_intent_created' },
    { type: 'ready' },
    { refused: 'orders.errors.not_allowed', stale: false },
  ],
];

describe('order transition', () => {
  it.each(rows)('%s', (_name, from, event, expected) => {
    const before = structuredClone(from);
    const outcome = transition(from, event, NOW);
    expect(from).toEqual(before);
    if ('refused' in expected) {
      expect(outcome).toEqual({ ok: false, code: expected.refused, stale: expected.stale });
      return;
    }
    const { effects, label, ...fields } = expected;
    expect(outcome).toEqual({ ok: true, state: { ...from, ...fields }, effects, label });
  });

  it('covers every event applied and refused, from every status', () => {
    const events: Record<OrderEvent['type'], { applied: number; refused: number }> = {
      checkout_started: { applied: 0, refused: 0 },
      payment_failed: { applied: 0, refused: 0 },
      payment_pending: { applied: 0, refused: 0 },
      payment_succeeded: { applied: 0, refused: 0 },
      honoured: { applied: 0, refused: 0 },
      not_honourable: { applied: 0, refused: 0 },
      booking_expired: { applied: 0, refused: 0 },
      ship: { applied: 0, refused: 0 },
      confirm_receipt: { applied: 0, refused: 0 },
      release_due: { applied: 0, refused: 0 },
      dispute: { applied: 0, refused: 0 },
      cancel: { applied: 0, refused: 0 },
      refunded: { applied: 0, refused: 0 },
      ready: { applied: 0, refused: 0 },
    };
    for (const [, , event, expected] of rows) {
      events[event.type]['refused' in expected ? 'refused' : 'applied'] += 1;
    }
    for (const [type, count] of Object.entries(events)) {
      expect({ type, applied: count.applied > 0, refused: count.refused > 0 }).toEqual({
        type,
        applied: true,
        refused: true,
      });
    }
    expect(new Set(rows.map(([, from]) => from.status))).toEqual(new Set(ORDER_STATUSES));
    expect(new Set(rows.map(([name]) => name)).size).toBe(rows.length);
  });

  it('releases payouts exactly 14 days after shipping', () => {
    expect(RELEASE_AFTER_SHIPPING_MS).toBe(1_209_600_000);
    const outcome = transition(paid, shipEvent, new Date('2026-12-31T23:30:00.000Z'));
    expect(outcome.ok && outcome.state.release_at).toBe('2027-01-14T23:30:00.000Z');
  });
});

describe('order helpers', () => {
  const statuses = [
    ['accepted', true, false],
    ['payment_intent_created', true, false],
    ['payment_intent_success', false, false],
    ['checkout_complete', false, true],
    ['paid', false, true],
    ['fulfilled', false, true],
    ['cancelled', false, false],
    ['payment_expired', false, false],
    ['order_expired', false, false],
  ] as const;

  it.each(statuses)('%s: booked %s, paid for %s', (status, booked, paidFor) => {
    expect(isBooked({ status })).toBe(booked);
    expect(isPaidFor({ status })).toBe(paidFor);
  });

  it('answers isBooked and isPaidFor for every status', () => {
    expect(statuses.map(([status]) => status)).toEqual([...ORDER_STATUSES]);
  });

  /** The only (status, fulfilment, delivery) combinations where each helper answers true. */
  const allowed = {
    canCancel: [
      'checkout_complete/none/delivery',
      'checkout_complete/none/pickup',
      'checkout_complete/none/none',
      'paid/none/delivery',
      'paid/none/pickup',
      'paid/none/none',
    ],
    canShip: ['paid/none/delivery'],
    canConfirmReceipt: [
      'paid/shipped/delivery',
      'paid/shipped/pickup',
      'paid/shipped/none',
      'paid/none/pickup',
    ],
  };
  const combinations = ORDER_STATUSES.flatMap((status) =>
    FULFILMENT_STATES.flatMap((fulfilment) =>
      DELIVERY_MODES.map((delivery) => ({ status, fulfilment, delivery })),
    ),
  );

  it.each(combinations)('$status/$fulfilment/$delivery', (combination) => {
    const key = `${combination.status}/${combination.fulfilment}/${combination.delivery}`;
    expect({
      canCancel: canCancel(combination),
      canShip: canShip(combination),
      canConfirmReceipt: canConfirmReceipt(combination),
    }).toEqual({
      canCancel: allowed.canCancel.includes(key),
      canShip: allowed.canShip.includes(key),
      canConfirmReceipt: allowed.canConfirmReceipt.includes(key),
    });
  });
});
