import type { DynamoDBRecord } from 'aws-lambda';
import type Stripe from 'stripe';
import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import { settleDefault } from './cards';
import { syncOnboarding } from './onboarding';
import type { PaymentsDeps } from './payments';
import { keptEventOf } from './payments.repo';
import { isAccountGone, isMissing, viaStripe } from './payments.stripe';

/**
 * Stripe's webhook (POST /api/payment-gateway/webhook), the only caller of event handling:
 * - the Stripe-Signature is checked on the raw body with the SDK (`constructEvent`, 300 s
 *   tolerance) against the endpoint's signing secrets (the platform endpoint and the Connect
 *   endpoint have one each); a bad or missing signature is a 400 and nothing is done;
 * - each event is kept once (a conditional put) and answered 200 at once; it is handled off the
 *   request path (handleEvent: the `stripeEvents` stream trigger, and the sweep), at most once:
 *   claimed by id before handling, marked done after, given up on failure (retried);
 * - any order is right: a handler never trusts the event's copy of the object but reads its
 *   current state from Stripe and derives the effect from it (an older event finds the newer state
 *   and changes nothing);
 * - unknown types are acknowledged and ignored.
 */
export const SIGNATURE_TOLERANCE_S = 300;

export type EventHandler = (deps: PaymentsDeps, event: Stripe.Event, now: Date) => Promise<void>;

/** Whose is a Stripe object: the user id our calls wrote in its metadata (only our key can). */
function userIdOf(object: { metadata?: Stripe.Metadata | null }): string | undefined {
  const value = object.metadata?.user_id;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** account.updated: the seller's onboarding moved (001 §4). */
async function accountUpdated(deps: PaymentsDeps, event: Stripe.Event, now: Date): Promise<void> {
  const accountId = (event.data.object as Stripe.Account).id;
  const stripe = await deps.stripe();
  let account: Stripe.Account;
  try {
    account = await stripe.accounts.retrieve(accountId);
  } catch (error) {
    if (isAccountGone(error)) return; // deleted or disconnected since: nothing to keep
    throw error;
  }
  const userId = userIdOf(account);
  const record = userId === undefined ? undefined : await deps.repo.getRecord(userId);
  if (userId === undefined || record?.stripe_account_id !== account.id) {
    // Not (or no longer) a user's account, e.g. a duplicate dropped by a race in begin.
    logger.info('account.updated for an account no user holds', { account: account.id });
    return;
  }
  await syncOnboarding(deps, userId, account);
  // Shares of orders kept waiting for this account (a creator's royalty, a beneficiary's share).
  if (account.capabilities?.transfers === 'active') await deps.orders.payoutsReady(userId, now);
}

/** The customer a saved card belongs to, when it is one of our users'. */
async function customerUser(
  deps: PaymentsDeps,
  stripe: Stripe,
  customerId: string | null,
): Promise<string | undefined> {
  if (customerId === null) return undefined;
  let customer: Stripe.Customer | Stripe.DeletedCustomer;
  try {
    customer = await stripe.customers.retrieve(customerId);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (customer.deleted === true) return undefined;
  const userId = userIdOf(customer);
  if (userId === undefined) return undefined;
  const record = await deps.repo.getRecord(userId);
  return record?.customer_id === customerId ? userId : undefined;
}

/** A card was saved or removed: the default is settled and the user's tabs refetch their cards. */
async function cardsChanged(
  deps: PaymentsDeps,
  customerId: string | null,
  now: Date,
): Promise<void> {
  const stripe = await deps.stripe();
  const userId = await customerUser(deps, stripe, customerId);
  if (userId === undefined || customerId === null) return;
  await settleDefault(stripe, customerId, now);
  await deps.publish(userId, { type: 'payments.cards_updated' });
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

async function setupIntentSucceeded(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  const stripe = await deps.stripe();
  const intent = await stripe.setupIntents.retrieve((event.data.object as Stripe.SetupIntent).id);
  if (intent.status !== 'succeeded') return;
  await cardsChanged(deps, idOf(intent.customer), now);
}

async function checkoutCompleted(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  const stripe = await deps.stripe();
  const session = await stripe.checkout.sessions.retrieve(
    (event.data.object as Stripe.Checkout.Session).id,
  );
  if (session.status !== 'complete') return;
  // Payment mode paid an order (its PaymentIntent decides); setup mode saved a card.
  if (session.mode === 'payment') {
    if (session.metadata?.order_id !== undefined)
      await deps.orders.checkoutCompleted(session.id, now);
    return;
  }
  if (session.mode !== 'setup') return;
  await cardsChanged(deps, idOf(session.customer), now);
}

/** checkout.session.expired: an order's payment page closed (its order forgets it). */
async function checkoutExpired(deps: PaymentsDeps, event: Stripe.Event, now: Date): Promise<void> {
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.mode !== 'payment' || session.metadata?.order_id === undefined) return;
  await deps.orders.checkoutExpired(session.id, now);
}

/** payment_intent.succeeded / payment_failed: an order's payment moved (read again from Stripe). */
async function paymentIntentChanged(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  const intent = event.data.object as Stripe.PaymentIntent;
  if (intent.metadata.order_id === undefined) return;
  await deps.orders.paymentIntentChanged(intent.id, now);
}

/** charge.refunded: a refund of an order's charge (ours, or made in Stripe's dashboard). */
async function chargeRefunded(deps: PaymentsDeps, event: Stripe.Event, now: Date): Promise<void> {
  const charge = event.data.object as Stripe.Charge;
  const intentId = idOf(charge.payment_intent);
  if (intentId === null) return;
  await deps.orders.chargeRefunded(intentId, now);
}

async function paymentMethodDetached(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  // The detached card has no customer any more; Stripe names the one it had.
  const previous = event.data.previous_attributes as { customer?: string | null } | undefined;
  await cardsChanged(deps, previous?.customer ?? null, now);
}

/**
 * charge.dispute.*: the buyer's bank disputes a payment (a chargeback). The dispute is read again
 * from Stripe (its current status decides), its payment's order found, and orders told.
 */
async function disputeChanged(deps: PaymentsDeps, event: Stripe.Event, now: Date): Promise<void> {
  const stripe = await deps.stripe();
  const dispute = await stripe.disputes.retrieve((event.data.object as Stripe.Dispute).id);
  const intentId = idOf(dispute.payment_intent as string | { id: string } | null);
  if (intentId === null) return;
  const intent = await stripe.paymentIntents.retrieve(intentId);
  const orderId = intent.metadata.order_id;
  if (orderId === undefined) return; // Not a payment of ours.
  const dueBy = dispute.evidence_details?.due_by ?? null;
  await deps.orders.disputeChanged(
    {
      dispute_id: dispute.id,
      order_id: orderId,
      payment_intent_id: intentId,
      status: dispute.status,
      reason: dispute.reason,
      amount: dispute.amount,
      currency: dispute.currency.toUpperCase(),
      evidence_due_by: dueBy === null ? null : new Date(dueBy * 1000).toISOString(),
      created: new Date(dispute.created * 1000).toISOString(),
    },
    now,
  );
}

/**
 * The user whose connected account `accountId` is: kept with the account when it was opened (an
 * account opened before that: its metadata, while Stripe still lets us read it), checked against
 * the user's record.
 */
async function accountUser(
  deps: PaymentsDeps,
  stripe: Stripe,
  accountId: string,
): Promise<string | undefined> {
  let userId = await deps.repo.userOfAccount(accountId);
  if (userId === undefined) {
    try {
      userId = userIdOf(await stripe.accounts.retrieve(accountId));
    } catch (error) {
      // Gone, or no longer ours to read (deauthorized): nobody to act for.
      if (isAccountGone(error)) return undefined;
      throw error;
    }
  }
  if (userId === undefined) return undefined;
  return (await deps.repo.getRecord(userId))?.stripe_account_id === accountId ? userId : undefined;
}

/**
 * payout.failed (a connected account's event): Stripe could not pay the seller's balance out to
 * their bank (the money is back in their balance). The seller is told to check their bank details
 * in their Stripe dashboard (once per payout), and their onboarding status is read again (Stripe
 * usually asks for a new bank account).
 */
async function payoutFailed(deps: PaymentsDeps, event: Stripe.Event): Promise<void> {
  const accountId = event.account;
  if (accountId === undefined) return;
  const stripe = await deps.stripe();
  let payout: Stripe.Payout;
  try {
    payout = await stripe.payouts.retrieve(
      (event.data.object as Stripe.Payout).id,
      {},
      { stripeAccount: accountId },
    );
  } catch (error) {
    if (isAccountGone(error)) return; // Disconnected since: nobody to tell through us.
    throw error;
  }
  if (payout.status !== 'failed') return;
  const userId = await accountUser(deps, stripe, accountId);
  if (userId === undefined) return;
  logger.warn('a seller payout to their bank failed', {
    userId,
    payout: payout.id,
    failureCode: payout.failure_code,
  });
  await deps.notify({
    to: userId,
    activity: 'minter_payoutfailed',
    eventKey: `payout-failed:${payout.id}`,
    payload: {
      amount: { amount: payout.amount, currency: payout.currency.toUpperCase() },
      status: payout.failure_code ?? 'failed',
    },
  });
  await syncOnboarding(deps, userId, await stripe.accounts.retrieve(accountId));
}

/**
 * account.application.deauthorized: the seller disconnected their account from the platform. It
 * cannot receive transfers any more: the account is forgotten (the user becomes a seller again by
 * onboarding anew), and their shares wait for a new account (`waiting_account`).
 */
async function accountDeauthorized(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  const accountId = event.account;
  if (accountId === undefined) return;
  const userId = await accountUser(deps, await deps.stripe(), accountId);
  if (userId === undefined) return;
  await deps.repo.forgetAccount(userId, accountId, now);
  const { changed } = await deps.sellers.setSellerStatus(userId, {
    onboarding_status: 'become_minter',
    is_seller: false,
  });
  if (changed)
    await deps.publish(userId, { type: 'stripe.updated', onboarding_status: 'become_minter' });
  logger.warn('a seller disconnected their Stripe account', { userId, account: accountId });
}

/** checkout.session.async_payment_*: a delayed payment of a Checkout page ended (its intent decides). */
async function checkoutAsyncPayment(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.mode !== 'payment' || session.metadata?.order_id === undefined) return;
  const stripe = await deps.stripe();
  const current = await stripe.checkout.sessions.retrieve(session.id);
  const intentId = idOf(current.payment_intent as string | { id: string } | null);
  if (intentId !== null) await deps.orders.paymentIntentChanged(intentId, now);
}

export const EVENT_HANDLERS: Partial<Record<Stripe.Event.Type, EventHandler>> = {
  'account.updated': accountUpdated,
  'setup_intent.succeeded': setupIntentSucceeded,
  'checkout.session.completed': checkoutCompleted,
  'checkout.session.expired': checkoutExpired,
  'payment_method.detached': paymentMethodDetached,
  'payment_intent.succeeded': paymentIntentChanged,
  'payment_intent.payment_failed': paymentIntentChanged,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': disputeChanged,
  'charge.dispute.updated': disputeChanged,
  'charge.dispute.funds_withdrawn': disputeChanged,
  'charge.dispute.funds_reinstated': disputeChanged,
  'charge.dispute.closed': disputeChanged,
  'checkout.session.async_payment_succeeded': checkoutAsyncPayment,
  'checkout.session.async_payment_failed': checkoutAsyncPayment,
  'payout.failed': payoutFailed,
  'account.application.deauthorized': accountDeauthorized,
};

/** The event, if the signature holds under one of the endpoint secrets. */
export function verifiedEvent(
  stripe: Stripe,
  input: { payload: string; signature: string | undefined; secrets: readonly string[] },
  now: Date,
): Stripe.Event {
  if (input.signature === undefined || input.signature === '') throw badSignature();
  for (const secret of input.secrets) {
    try {
      return stripe.webhooks.constructEvent(
        input.payload,
        input.signature,
        secret,
        SIGNATURE_TOLERANCE_S,
        undefined,
        now.getTime(),
      );
    } catch {
      // Try the next secret.
    }
  }
  throw badSignature();
}

function badSignature(): DomainError {
  return new DomainError('payments.errors.webhook_signature', {
    message: 'The Stripe-Signature header is missing, expired or does not match the payload.',
  });
}

/**
 * `POST /api/payment-gateway/webhook`: the signature checked, the event kept once (a redelivery
 * finds it kept), answered at once. The work it triggers runs off the request path: the table's
 * stream hands the kept event to the `stripeEvents` trigger (handleEvent), retried by Lambda, and
 * an event still not handled a few minutes later is handled by the sweep (sweepEvents, on the
 * trigger's schedule) — so a 2xx is only answered once the event is durably kept, and everything
 * kept is handled. An event of a type the product does not handle is acknowledged and not kept.
 */
export async function handleWebhook(
  deps: PaymentsDeps,
  input: { payload: string; signature: string | undefined },
  now: Date,
): Promise<{ received: true; duplicate: boolean }> {
  const [stripe, keys] = await Promise.all([deps.stripe(), deps.keys()]);
  const event = verifiedEvent(
    stripe,
    {
      ...input,
      secrets: [
        keys.webhookSecret,
        ...(keys.connectWebhookSecret === undefined ? [] : [keys.connectWebhookSecret]),
      ],
    },
    now,
  );
  if (EVENT_HANDLERS[event.type] === undefined) {
    logger.info('webhook event ignored', { eventId: event.id, type: event.type });
    return { received: true, duplicate: false };
  }
  const kept = await deps.repo.receiveEvent(
    { id: event.id, type: event.type, payload: input.payload },
    now,
  );
  return { received: true, duplicate: kept === 'known' };
}

/**
 * Handles a kept event once: claimed (with a lease, so a handler stopped mid-way is taken over),
 * its handler run, marked done. A failure gives the claim up (the event stays pending for the
 * retry or the sweep) and is thrown. Answers what became of it.
 */
export async function handleEvent(
  deps: PaymentsDeps,
  event: Stripe.Event,
  now: Date,
): Promise<'handled' | 'done' | 'busy' | 'missing'> {
  const handler = EVENT_HANDLERS[event.type];
  if (handler === undefined) return 'done';
  const claim = await deps.repo.claimEvent(event.id, now);
  if (claim !== 'claimed') return claim;
  try {
    await viaStripe('payments.errors.provider', () => handler(deps, event, now));
  } catch (error) {
    await deps.repo.releaseEvent(event.id);
    throw error;
  }
  await deps.repo.finishEvent(event.id, now);
  logger.info('webhook event handled', { eventId: event.id, type: event.type });
  return 'handled';
}

/** Kept events not handled this long after they came are the sweep's. */
export const EVENT_SWEEP_GRACE_MS = 2 * 60_000;

/**
 * The sweep of kept events (the `stripeEventsReplay` schedule): every event received more than a
 * grace period ago and still not handled — its stream batch failed past its retries, or the
 * handler was stopped — is handled now. Answers the ids handled and those that failed again
 * (logged; they stay pending for the next run).
 */
export async function sweepEvents(
  deps: PaymentsDeps,
  now: Date,
  options: { limit: number; remainingMs: () => number },
): Promise<{ handled: string[]; failed: string[] }> {
  const before = new Date(now.getTime() - EVENT_SWEEP_GRACE_MS).toISOString();
  const pending = await deps.repo.pendingEvents(before, options.limit);
  const handled: string[] = [];
  const failed: string[] = [];
  for (const entry of pending) {
    if (options.remainingMs() < 10_000) break;
    try {
      const event = JSON.parse(entry.payload) as Stripe.Event;
      if ((await handleEvent(deps, event, now)) === 'handled') handled.push(entry.id);
    } catch (error) {
      failed.push(entry.id);
      logger.error('a kept Stripe event failed again', {
        eventId: entry.id,
        error: error as Error,
      });
    }
  }
  return { handled, failed };
}

/**
 * The `stripeEvents` stream trigger's batch (new kept events): each handled in turn, one failing
 * never holding the others up (each is claimed, so one delivered again finds itself done); the
 * first that failed is answered (ReportBatchItemFailures: Lambda delivers again from it). An event
 * that keeps failing stays pending and the sweep tries it every 5 minutes (and alarms).
 */
export async function handleKeptRecords(
  deps: PaymentsDeps,
  records: readonly DynamoDBRecord[],
  now: Date,
): Promise<string[]> {
  let firstFailed: string | undefined;
  for (const record of records) {
    const kept = keptEventOf(record);
    if (kept === undefined) continue;
    try {
      await handleEvent(deps, JSON.parse(kept.payload) as Stripe.Event, now);
    } catch (error) {
      logger.warn('a Stripe event failed; it is delivered again', {
        eventId: kept.id,
        error: error as Error,
      });
      firstFailed ??= record.dynamodb?.SequenceNumber ?? '';
    }
  }
  return firstFailed === undefined ? [] : [firstFailed];
}
