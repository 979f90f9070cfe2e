import type Stripe from 'stripe';
import { DomainError } from '../core/errors';
import { ensureCustomer, listCards } from './cards';
import type { PaymentsDeps } from './payments';
import { logger } from '../core/logger';
import {
  isAccountGone,
  isMissing,
  isProviderFailure,
  isStripeError,
  stripeFailure,
  viaStripe,
} from './payments.stripe';

/**
 * Orders' card payments (issue 12; DESIGN §7): one charge per order payment, separate charges and
 * transfers (`transfer_group` = the order id, `source_transaction` = the charge), refunds and
 * reversals. Orders call these through their port (functions/orders/ports.ts); this is the only
 * code that talks to Stripe about money. Every creating call carries an idempotency key derived
 * from the order, so a retried call or task never charges, refunds or transfers twice.
 */

/** The card provider's failure a buyer is shown (spec 000 §8 Buy: "card provider error"). */
const PROVIDER = 'market.buy.errors.card_provider' as const;

/** What orders know of a payment, read from Stripe (the truth). */
export interface PaymentFacts {
  payment_intent_id: string;
  status:
    | 'succeeded'
    | 'processing'
    | 'requires_action'
    | 'requires_payment_method'
    | 'canceled'
    | 'other';
  amount: number;
  currency: string;
  charge_id: string | null;
  receipt_url: string | null;
  order_id: string | null;
  /** `full`, `deposit` or `balance` (our metadata). */
  kind: string | null;
  /** The card's error code when the last attempt failed. */
  error_code: string | null;
  next_action_url: string | null;
  amount_refunded: number;
}

export interface OrderCharge {
  orderId: string;
  userId: string;
  kind: 'full' | 'deposit' | 'balance';
  name: string;
  currency: string;
  /** Per copy, minor units. */
  unitAmount: number;
  quantity: number;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

function statusOf(intent: Stripe.PaymentIntent): PaymentFacts['status'] {
  switch (intent.status) {
    case 'succeeded':
    case 'processing':
    case 'requires_action':
    case 'requires_payment_method':
    case 'canceled':
      return intent.status as PaymentFacts['status'];
    default:
      return 'other';
  }
}

async function factsOf(stripe: Stripe, intent: Stripe.PaymentIntent): Promise<PaymentFacts> {
  const chargeId = idOf(intent.latest_charge as string | { id: string } | null);
  let receipt: string | null = null;
  let refunded = 0;
  const expanded = intent.latest_charge;
  if (expanded !== null && typeof expanded === 'object') {
    // Asked for with `expand: ['latest_charge']`: no second call.
    receipt = expanded.receipt_url ?? null;
    refunded = expanded.amount_refunded;
  } else if (chargeId !== null) {
    const charge = await stripe.charges.retrieve(chargeId);
    receipt = charge.receipt_url ?? null;
    refunded = charge.amount_refunded;
  }
  return {
    payment_intent_id: intent.id,
    status: statusOf(intent),
    amount: intent.amount,
    currency: intent.currency.toUpperCase(),
    charge_id: chargeId,
    receipt_url: receipt,
    order_id: intent.metadata.order_id ?? null,
    kind: intent.metadata.kind ?? null,
    error_code: intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code ?? null,
    next_action_url: intent.next_action?.redirect_to_url?.url ?? null,
    amount_refunded: refunded,
  };
}

/** The payment as Stripe has it now; undefined when Stripe has no such intent. */
export async function retrievePayment(
  deps: PaymentsDeps,
  paymentIntentId: string,
): Promise<PaymentFacts | undefined> {
  const stripe = await deps.stripe();
  try {
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
      expand: ['latest_charge'],
    });
    return await factsOf(stripe, intent);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw stripeFailure('payments.errors.provider', error);
  }
}

const metadataOf = (charge: OrderCharge) => ({
  order_id: charge.orderId,
  user_id: charge.userId,
  kind: charge.kind,
});

/**
 * Stripe Checkout for an order payment. The session lives at least 30 minutes (Stripe's minimum);
 * the booking-expiry workflow expires it when the booking ends. `saveCard` keeps the card for a
 * deposit order's balance (charged off session later).
 */
export async function createOrderCheckout(
  deps: PaymentsDeps,
  charge: OrderCharge,
  input: {
    successPath: string;
    cancelPath: string;
    expiresAt: Date;
    saveCard: boolean;
    idempotencyKey: string;
  },
  now: Date,
): Promise<{ session_id: string; url: string; expires_at: string }> {
  const customer = await ensureCustomer(deps, charge.userId, now);
  const stripe = await deps.stripe();
  const session = await viaStripe(PROVIDER, () =>
    stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer,
        line_items: [
          {
            price_data: {
              currency: charge.currency.toLowerCase(),
              unit_amount: charge.unitAmount,
              product_data: { name: charge.name },
            },
            quantity: charge.quantity,
          },
        ],
        payment_intent_data: {
          transfer_group: charge.orderId,
          metadata: metadataOf(charge),
          ...(input.saveCard ? { setup_future_usage: 'off_session' as const } : {}),
        },
        metadata: { ...metadataOf(charge), purpose: 'order' },
        success_url: `${deps.webOrigin}${input.successPath}`,
        cancel_url: `${deps.webOrigin}${input.cancelPath}`,
        expires_at: Math.ceil(input.expiresAt.getTime() / 1000),
      },
      { idempotencyKey: input.idempotencyKey },
    ),
  );
  if (session.url === null) {
    throw new DomainError('checkout.errors.payment_intent', {
      message: 'Stripe did not answer a payment page.',
    });
  }
  return {
    session_id: session.id,
    url: session.url,
    expires_at: new Date(session.expires_at * 1000).toISOString(),
  };
}

export interface CheckoutFacts {
  session_id: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  order_id: string | null;
  user_id: string | null;
  payment_intent_id: string | null;
  url: string | null;
  mode: string;
}

export async function retrieveCheckout(
  deps: PaymentsDeps,
  sessionId: string,
): Promise<CheckoutFacts | undefined> {
  const stripe = await deps.stripe();
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw stripeFailure('payments.errors.provider', error);
  }
  return {
    session_id: session.id,
    status:
      session.status === 'complete'
        ? 'complete'
        : session.status === 'expired'
          ? 'expired'
          : 'open',
    payment_status:
      session.payment_status === 'paid'
        ? 'paid'
        : session.payment_status === 'no_payment_required'
          ? 'no_payment_required'
          : 'unpaid',
    order_id: session.metadata?.order_id ?? null,
    user_id: session.metadata?.user_id ?? null,
    payment_intent_id: idOf(session.payment_intent as string | { id: string } | null),
    url: session.url,
    mode: session.mode,
  };
}

/** Expires an open Checkout Session (no-op when it is complete, expired or gone). */
export async function expireCheckout(deps: PaymentsDeps, sessionId: string): Promise<void> {
  const current = await retrieveCheckout(deps, sessionId);
  if (current?.status !== 'open') return;
  const stripe = await deps.stripe();
  try {
    await stripe.checkout.sessions.expire(sessionId);
  } catch (error) {
    // Completed or expired in the meantime: the webhook of that outcome decides.
    if (isStripeError(error) && error.statusCode === 400) return;
    throw stripeFailure('payments.errors.provider', error);
  }
}

/**
 * The PaymentIntent an order pays one charge with from saved cards (issue 30 §5): created once,
 * unconfirmed, under a key of the order and the kind of charge only, so two tabs, a double click,
 * a retried call and the auction close all confirm the same intent, which Stripe lets succeed
 * once. The order keeps its id (Stripe keeps a key 24 hours; a balance may be charged later).
 */
export async function openOrderIntent(
  deps: PaymentsDeps,
  charge: OrderCharge,
  input: { idempotencyKey: string },
  now: Date,
): Promise<string> {
  const customer = await ensureCustomer(deps, charge.userId, now);
  const stripe = await deps.stripe();
  const intent = await viaStripe(PROVIDER, () =>
    stripe.paymentIntents.create(
      {
        amount: charge.unitAmount * charge.quantity,
        currency: charge.currency.toLowerCase(),
        customer,
        transfer_group: charge.orderId,
        metadata: metadataOf(charge),
      },
      { idempotencyKey: input.idempotencyKey },
    ),
  );
  return intent.id;
}

function methodOf(intent: Stripe.PaymentIntent): string | null {
  return idOf(intent.payment_method as string | { id: string } | null);
}

/**
 * Confirms an order's PaymentIntent with a saved card: on session (the buyer is there: a card that
 * needs the bank answers Stripe's page, returning to `returnPath`), or off session (an auction's
 * winner, a deposit order's balance). A card's refusal is answered as facts with `error_code`;
 * nothing throws for it. An intent another attempt already moved on (paid in another tab, waiting
 * on the bank with this very card) is answered as it stands, never confirmed again. A provider's
 * failure throws ProviderUnavailable.
 */
export async function confirmOrderIntent(
  deps: PaymentsDeps,
  intentId: string,
  input: {
    userId: string;
    paymentMethod: string | undefined;
    offSession: boolean;
    returnPath: string;
    /** Just created: nothing can have happened to it yet (saves a read). */
    fresh: boolean;
  },
  now: Date,
): Promise<PaymentFacts> {
  const cards = (await listCards(deps, input.userId, now)).payment_methods;
  const card =
    input.paymentMethod === undefined
      ? (cards.find((entry) => entry.default) ?? cards[0])
      : cards.find((entry) => entry.id === input.paymentMethod);
  if (card === undefined) {
    throw new DomainError(
      input.paymentMethod === undefined
        ? 'checkout.errors.no_card'
        : 'payments.errors.card_not_found',
      { message: 'No saved card to pay with.' },
    );
  }
  const stripe = await deps.stripe();
  const current = async () =>
    factsOf(
      stripe,
      await viaStripe(PROVIDER, () =>
        stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }),
      ),
    );
  if (!input.fresh) {
    const intent = await viaStripe(PROVIDER, () =>
      stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }),
    );
    const waiting = intent.status === 'requires_action' && methodOf(intent) === card.id;
    if (
      intent.status === 'succeeded' ||
      intent.status === 'processing' ||
      intent.status === 'canceled' ||
      waiting
    ) {
      return factsOf(stripe, intent);
    }
  }
  try {
    const intent = await stripe.paymentIntents.confirm(intentId, {
      payment_method: card.id,
      expand: ['latest_charge'],
      ...(input.offSession
        ? { off_session: true }
        : { return_url: `${deps.webOrigin}${input.returnPath}` }),
    });
    return await factsOf(stripe, intent);
  } catch (error) {
    // A card error (declined, authentication needed off session) carries the intent it failed.
    if (isStripeError(error) && error.type === 'StripeCardError') {
      const failed = (error.raw as { payment_intent?: Stripe.PaymentIntent }).payment_intent;
      const facts = failed === undefined ? await current() : await factsOf(stripe, failed);
      return { ...facts, error_code: error.decline_code ?? error.code ?? 'card_declined' };
    }
    // Another attempt moved it on meanwhile (a concurrent confirm that succeeded): as it stands.
    if (isStripeError(error) && error.code === 'payment_intent_unexpected_state') {
      return current();
    }
    throw stripeFailure(PROVIDER, error);
  }
}

/** Refunds what is left of a payment (or `amount`), once per key. */
export async function refundPayment(
  deps: PaymentsDeps,
  input: { paymentIntentId: string; orderId: string; amount?: number; idempotencyKey: string },
): Promise<{ refund_id: string; amount: number; status: string | null; created: string }> {
  const stripe = await deps.stripe();
  const current = await retrievePayment(deps, input.paymentIntentId);
  const refundable = current === undefined ? 0 : current.amount - current.amount_refunded;
  const amount = Math.min(input.amount ?? refundable, refundable);
  if (amount <= 0) {
    return { refund_id: '', amount: 0, status: 'succeeded', created: new Date(0).toISOString() };
  }
  const refund = await viaStripe('payments.errors.provider', () =>
    stripe.refunds.create(
      {
        payment_intent: input.paymentIntentId,
        amount,
        metadata: { order_id: input.orderId },
      },
      { idempotencyKey: input.idempotencyKey },
    ),
  );
  return {
    refund_id: refund.id,
    amount: refund.amount,
    status: refund.status,
    created: new Date(refund.created * 1000).toISOString(),
  };
}

/** A refund of a payment, ours or made in Stripe's dashboard. */
export interface RefundFacts {
  refund_id: string;
  amount: number;
  status: string | null;
  created: string;
}

/** Every refund of a payment (succeeded or pending; failed and canceled ones gave nothing back). */
export async function refundsOf(
  deps: Pick<PaymentsDeps, 'stripe'>,
  paymentIntentId: string,
): Promise<RefundFacts[]> {
  const stripe = await deps.stripe();
  const refunds: RefundFacts[] = [];
  await viaStripe('payments.errors.provider', async () => {
    for await (const refund of stripe.refunds.list({
      payment_intent: paymentIntentId,
      limit: 100,
    })) {
      if (refund.status === 'failed' || refund.status === 'canceled') continue;
      refunds.push({
        refund_id: refund.id,
        amount: refund.amount,
        status: refund.status,
        created: new Date(refund.created * 1000).toISOString(),
      });
    }
  });
  return refunds;
}

/** The user's connected account when it can receive transfers, else undefined. */
export async function payoutAccountOf(
  deps: PaymentsDeps,
  userId: string,
): Promise<string | undefined> {
  const accountId = (await deps.repo.getRecord(userId))?.stripe_account_id;
  if (accountId === undefined) return undefined;
  const stripe = await deps.stripe();
  try {
    const account = await stripe.accounts.retrieve(accountId);
    return account.capabilities?.transfers === 'active' ? account.id : undefined;
  } catch (error) {
    if (isAccountGone(error)) return undefined;
    throw stripeFailure('payments.errors.provider', error);
  }
}

export interface ShareTransfer {
  accountId: string;
  amount: number;
  currency: string;
  orderId: string;
  chargeId: string;
  party: string;
  idempotencyKey: string;
}

/**
 * The transfer already made for this share, if any: among the order's transfers to the account
 * (`transfer_group`, `destination`; a list is strongly consistent, unlike search), the one of this
 * party from this charge.
 */
async function madeTransfer(
  stripe: Stripe,
  input: ShareTransfer,
): Promise<Stripe.Transfer | undefined> {
  const made = stripe.transfers.list({
    transfer_group: input.orderId,
    destination: input.accountId,
    limit: 100,
  });
  for await (const transfer of made) {
    // One taken back in full (a dispute's claw-back) no longer pays the share: a new round does.
    if (transfer.amount_reversed >= transfer.amount) continue;
    if (
      transfer.metadata?.party === input.party &&
      idOf(transfer.source_transaction as string | { id: string } | null) === input.chargeId
    ) {
      return transfer;
    }
  }
  return undefined;
}

/**
 * A share of a charge to a connected account (separate charges and transfers), once. The key
 * makes calls racing each other one transfer, but Stripe keeps a key 24 hours only: a payout
 * retried later (resumed after an outage, a failed batch replayed) would transfer the share again,
 * so the order's transfers to the account are looked at first. One more Stripe call per payout.
 */
export async function transferShare(
  deps: Pick<PaymentsDeps, 'stripe'>,
  input: ShareTransfer,
): Promise<TransferOutcome> {
  const stripe = await deps.stripe();
  const made = await viaStripe('payments.errors.provider', () => madeTransfer(stripe, input));
  if (made !== undefined) {
    return {
      status: 'paid',
      transfer_id: made.id,
      created: new Date(made.created * 1000).toISOString(),
    };
  }
  try {
    const transfer = await stripe.transfers.create(
      {
        amount: input.amount,
        currency: input.currency.toLowerCase(),
        destination: input.accountId,
        transfer_group: input.orderId,
        source_transaction: input.chargeId,
        metadata: { order_id: input.orderId, party: input.party },
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return {
      status: 'paid',
      transfer_id: transfer.id,
      created: new Date(transfer.created * 1000).toISOString(),
    };
  } catch (error) {
    // Refused, not unavailable: the charge cannot fund it any more (refunded in part meanwhile),
    // the account cannot receive it. Retrying would be refused again: a person must look.
    if (isStripeError(error) && !isProviderFailure(error) && error.statusCode === 400) {
      logger.error('stripe refused a payout transfer', {
        orderId: input.orderId,
        party: input.party,
        code: error.code,
        stripeMessage: error.message,
      });
      return { status: 'refused', code: error.code ?? 'transfer_refused' };
    }
    throw stripeFailure('payments.errors.provider', error);
  }
}

/** What became of paying a share out. */
export type TransferOutcome =
  | { status: 'paid'; transfer_id: string; created: string }
  /** Stripe refused it (see transferShare): the share is blocked for support. */
  | { status: 'refused'; code: string };

/** What became of taking a transfer back. */
export type ReversalOutcome =
  | { status: 'reversed'; amount: number; created: string }
  /**
   * Stripe refused it (the connected account's balance cannot cover it, the account is gone):
   * `amount` is what the account still owes the platform.
   */
  | { status: 'refused'; amount: number; code: string };

/**
 * Takes what is left of a transfer back, once per key; null when nothing is left. A reversal Stripe
 * refuses is answered, not thrown (the caller records what the account owes); a provider's failure
 * throws ProviderUnavailable.
 */
export async function reverseTransfer(
  deps: PaymentsDeps,
  input: { transferId: string; orderId: string; idempotencyKey: string },
): Promise<ReversalOutcome | null> {
  const stripe = await deps.stripe();
  const transfer = await viaStripe('payments.errors.provider', () =>
    stripe.transfers.retrieve(input.transferId),
  );
  const left = transfer.amount - transfer.amount_reversed;
  if (left <= 0) {
    const last = transfer.reversals.data[0];
    return last === undefined
      ? null
      : { status: 'reversed', amount: 0, created: new Date(last.created * 1000).toISOString() };
  }
  try {
    const reversal = await stripe.transfers.createReversal(
      input.transferId,
      { amount: left, metadata: { order_id: input.orderId } },
      { idempotencyKey: input.idempotencyKey },
    );
    return {
      status: 'reversed',
      amount: reversal.amount,
      created: new Date(reversal.created * 1000).toISOString(),
    };
  } catch (error) {
    if (isStripeError(error) && !isProviderFailure(error) && error.statusCode === 400) {
      logger.warn('stripe refused a transfer reversal', {
        transferId: input.transferId,
        code: error.code,
        stripeMessage: error.message,
      });
      return { status: 'refused', amount: left, code: error.code ?? 'reversal_refused' };
    }
    throw stripeFailure('payments.errors.provider', error);
  }
}
