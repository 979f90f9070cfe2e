import type Stripe from 'stripe';
import { DomainError } from '../core/errors';
import { ensureCustomer, listCards } from './cards';
import type { PaymentsDeps } from './payments';
import { isMissing, isStripeError, viaStripe } from './payments.stripe';

/**
 * Orders' card payments (issue 12; DESIGN §7): one charge per order payment, separate charges and
 * transfers (`transfer_group` = the order id, `source_transaction` = the charge), refunds and
 * reversals. Orders call these through their port (functions/orders/ports.ts); this is the only
 * code that talks to Stripe about money. Every creating call carries an idempotency key derived
 * from the order, so a retried call or task never charges, refunds or transfers twice.
 */

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
    throw error;
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
  const session = await viaStripe('checkout.errors.payment_intent', () =>
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
    throw error;
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
    throw error;
  }
}

/**
 * Charges a saved card: on session (the buyer is at checkout: a card that needs authentication
 * answers Stripe's page, returning to `returnPath`), or off session (a deposit order's balance).
 * A declined card answers its facts with `error_code`; nothing throws for a card's refusal.
 */
export async function chargeSavedCard(
  deps: PaymentsDeps,
  charge: OrderCharge,
  input: {
    paymentMethod: string | undefined;
    offSession: boolean;
    returnPath: string;
    idempotencyKey: string;
  },
  now: Date,
): Promise<PaymentFacts> {
  const customer = await ensureCustomer(deps, charge.userId, now);
  const cards = (await listCards(deps, charge.userId, now)).payment_methods;
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
  const params: Stripe.PaymentIntentCreateParams = {
    amount: charge.unitAmount * charge.quantity,
    currency: charge.currency.toLowerCase(),
    customer,
    payment_method: card.id,
    confirm: true,
    transfer_group: charge.orderId,
    metadata: metadataOf(charge),
    expand: ['latest_charge'],
    ...(input.offSession
      ? { off_session: true }
      : { return_url: `${deps.webOrigin}${input.returnPath}` }),
  };
  try {
    const intent = await stripe.paymentIntents.create(params, {
      idempotencyKey: input.idempotencyKey,
    });
    return await factsOf(stripe, intent);
  } catch (error) {
    // A card error (declined, authentication needed off session) carries the intent it failed.
    if (isStripeError(error) && error.type === 'StripeCardError') {
      const failed = (error.raw as { payment_intent?: Stripe.PaymentIntent }).payment_intent;
      if (failed !== undefined) {
        const facts = await factsOf(stripe, failed);
        return { ...facts, error_code: error.decline_code ?? error.code ?? 'card_declined' };
      }
      throw new DomainError('checkout.errors.card_declined', {
        message: 'The card was declined.',
      });
    }
    return viaStripe('checkout.errors.payment_submit', () => Promise.reject(error));
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
    if (isMissing(error)) return undefined;
    throw error;
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
): Promise<{ transfer_id: string; created: string }> {
  const stripe = await deps.stripe();
  const transfer =
    (await viaStripe('payments.errors.provider', () => madeTransfer(stripe, input))) ??
    (await viaStripe('payments.errors.provider', () =>
      stripe.transfers.create(
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          destination: input.accountId,
          transfer_group: input.orderId,
          source_transaction: input.chargeId,
          metadata: { order_id: input.orderId, party: input.party },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    ));
  return { transfer_id: transfer.id, created: new Date(transfer.created * 1000).toISOString() };
}

/** Takes a transfer back in full, once per key. */
export async function reverseTransfer(
  deps: PaymentsDeps,
  input: { transferId: string; orderId: string; idempotencyKey: string },
): Promise<{ created: string } | null> {
  const stripe = await deps.stripe();
  const transfer = await viaStripe('payments.errors.provider', () =>
    stripe.transfers.retrieve(input.transferId),
  );
  const left = transfer.amount - transfer.amount_reversed;
  if (left <= 0) {
    const last = transfer.reversals.data[0];
    return last === undefined ? null : { created: new Date(last.created * 1000).toISOString() };
  }
  const reversal = await viaStripe('payments.errors.provider', () =>
    stripe.transfers.createReversal(
      input.transferId,
      { amount: left, metadata: { order_id: input.orderId } },
      { idempotencyKey: input.idempotencyKey },
    ),
  );
  return { created: new Date(reversal.created * 1000).toISOString() };
}
