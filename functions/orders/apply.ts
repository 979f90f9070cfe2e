import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import type { ErrorCode } from '../../shared/errors/registry';
import type { WalletActivity } from '../../shared/schemas/orders';
import { payoutsOf } from '../../shared/split';
import {
  allCopies,
  bookableCopies,
  holdingChangePiece,
  imageUrls,
  refundCopyPieces,
  releaseBookingUpdate,
  returnUnbookedCopyUpdate,
  saleCopyPieces,
  summaryOf,
  type CopyRecord,
} from '../items/index';
import { saleEffectsOf, saleOf } from '../offerings/index';
import { transition, type OrderEffect, type OrderEvent } from './order.machine';
import {
  balanceUncharged,
  nftUniqueIdOf,
  payoutsReleased,
  splitOf,
  type OrderParty,
  type OrderRecord,
  type StoredPayment,
  type StoredTransfer,
} from './orders';
import type { TransactItem } from './orders.repo';
import type { OrdersDeps } from './ports';
import type { OrderCharge, PaymentFacts, RefundFacts } from '../payments/index';

/**
 * The one way an order moves (issue 12 §2): `applyOrderEvent` loads the order, runs the pure
 * `transition(state, event, now)` of order.machine.ts, writes the next state conditioned on the
 * version it read (a lost race reloads), then performs the effects the transition named. Effects
 * are idempotent — every Stripe call carries a key derived from the order and the payment, every
 * copy write is conditioned on what it expects, notify() is keyed by event — so a redelivered
 * webhook, a replayed workflow task or a retried call repeats them harmlessly.
 */
const MAX_ATTEMPTS = 8;

export function orderNotFound(): DomainError {
  return new DomainError('orders.errors.not_found', { message: 'This order could not be found.' });
}

export interface AppliedOrder {
  record: OrderRecord;
  applied: boolean;
}

export interface ApplyOptions {
  /** A caller's action: a refused event that is not a replay throws its code. */
  strict: boolean;
  /**
   * A user's call is waiting (the saved-card payment, the return page): a sale's aftermath that
   * nobody waits for — the seller's and buyer's notifications, the market entries, the payouts,
   * the wallet lines — is left to the payment's webhook (payment_intent.succeeded, redelivered by
   * Stripe until handled), which finds the order paid and runs `settleAfterPayment`.
   */
  defer?: boolean;
  /** Fields written with the event (a payment recorded, shipping details), from the record read. */
  patch?: (record: OrderRecord) => Partial<OrderRecord>;
  /** The order as the caller just read it: the first attempt saves a read (a lost race reads). */
  known?: OrderRecord;
  /**
   * Writes that must land with the event, all or nothing (a cancel's copies coming back): built
   * from the record read; one that throws refuses the event, nothing written; null reads again
   * (read between another writer's steps).
   */
  with?: (record: OrderRecord) => Promise<TransactItem[] | null>;
}

/** Labels of events that record something without a step of their own on the timeline. */
const NO_TIMELINE = new Set(['resume', 'late_payment', 'extra_payment']);

export async function applyOrderEvent(
  deps: OrdersDeps,
  orderId: string,
  event: OrderEvent,
  now: Date,
  options: ApplyOptions = { strict: true },
): Promise<AppliedOrder> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record =
      attempt === 0 && options.known !== undefined ? options.known : await deps.repo.get(orderId);
    if (record === undefined) throw orderNotFound();
    const outcome = transition(record, event, now);
    if (!outcome.ok) {
      if (options.strict && !outcome.stale) {
        throw new DomainError(outcome.code as ErrorCode, {
          message: `The order is ${record.status}.`,
        });
      }
      if (outcome.stale) {
        // A replay (a retried call or task, a redelivered event) may follow an attempt whose
        // effects stopped short (Stripe down during a refund): the settling effects of where the
        // order stands run again; each is idempotent and finds little or nothing to do.
        const resume = resumeEffects(record);
        if (resume.length > 0 && !options.defer) {
          await performEffects(deps, record, resume, now);
          return { record: (await deps.repo.get(orderId)) ?? record, applied: false };
        }
      }
      return { record, applied: false };
    }
    const at = now.toISOString();
    const next: OrderRecord = {
      ...record,
      ...outcome.state,
      ...(options.patch?.(record) ?? {}),
      timeline: NO_TIMELINE.has(outcome.label)
        ? record.timeline
        : [...record.timeline, { status: outcome.state.status, label: outcome.label, at }],
      updated_at: at,
      version: record.version + 1,
    };
    next.refunded = next.payments.reduce((sum, entry) => sum + entry.refunded, 0);
    const pieces = options.with === undefined ? [] : await options.with(record);
    if (pieces === null) continue;
    const saved =
      pieces.length === 0
        ? await deps.repo.save(next, record.version)
        : await deps.repo.commit([deps.repo.orderPiece(next, record.version), ...pieces]);
    if (!saved) continue;
    await performEffects(deps, next, outcome.effects, now, options.defer === true);
    const effectsWrote = outcome.effects.some((effect) => effect !== 'updated');
    return {
      record: effectsWrote ? ((await deps.repo.get(orderId)) ?? next) : next,
      applied: true,
    };
  }
  throw new DomainError('unavailable', { message: 'The order is busy; try again.' });
}

/** Writes fields that are not the state machine's (a payment's outcome, a transfer made). */
export async function patchOrder(
  deps: OrdersDeps,
  orderId: string,
  patch: (record: OrderRecord) => Partial<OrderRecord> | null,
  now: Date,
): Promise<OrderRecord> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record = await deps.repo.get(orderId);
    if (record === undefined) throw orderNotFound();
    const changes = patch(record);
    if (changes === null) return record;
    const next = {
      ...record,
      ...changes,
      updated_at: now.toISOString(),
      version: record.version + 1,
    };
    if (await deps.repo.save(next, record.version)) return next;
  }
  throw new DomainError('unavailable', { message: 'The order is busy; try again.' });
}

export function payloadOf(deps: OrdersDeps, record: OrderRecord, amount?: number) {
  return {
    itemName: record.item.title,
    itemmarket: record.item.id,
    offeringId: record.offering_id,
    orderId: record.id,
    tokenImage: imageUrls(record.item.image, deps.imagesBaseUrl).thumb,
    ...(amount === undefined ? {} : { amount: { amount, currency: record.currency } }),
  };
}

/** A payment's line in the buyer's wallet activity. */
function paymentLine(record: OrderRecord, payment: StoredPayment): WalletActivity {
  return {
    id: payment.payment_intent_id ?? `${record.id}-${payment.kind}`,
    date: payment.paid_at ?? record.updated_at,
    event: 'payment',
    type: 'purchase',
    currency: record.currency as WalletActivity['currency'],
    amount: payment.amount,
    amount_paid: payment.amount,
    amount_received: 0,
    app_commission: payment.extra === true ? 0 : splitOf(record, payment.amount).fee.amount,
    total: payment.amount,
    receipt: payment.receipt_url,
    tx_id: payment.charge_id,
    description: `${record.item.title} × ${record.quantity}`,
    order_id: record.id,
  };
}

/** The idempotent effects that settle an order where it stands (see applyOrderEvent). */
export function resumeEffects(record: OrderRecord): OrderEffect[] {
  // Money not asked for that a refund has not given back yet (Stripe down at the time).
  const extra: OrderEffect[] = record.payments.some(
    (payment) => payment.extra === true && payment.status === 'succeeded',
  )
    ? ['refund_extra']
    : [];
  switch (record.status) {
    case 'cancelled':
      return ['return_copies', 'refund', 'reverse_payouts'];
    case 'payment_expired':
      return ['refund'];
    case 'fulfilled':
      return [
        ...(payoutsReleased(record) && record.transfers.some((entry) => entry.state === 'held')
          ? (['payout'] as const)
          : []),
        ...extra,
      ];
    case 'order_expired':
      return ['release_booking', ...extra];
    case 'checkout_complete':
      // The balance asked for and neither charged nor refused yet (Stripe failed at the time): the
      // same PaymentIntent is confirmed again.
      return balanceUncharged(record) ? ['charge_balance', ...extra] : extra;
    default:
      return extra;
  }
}

/** What a waiting call leaves to the payment's webhook (ApplyOptions.defer). */
const DEFERRED: ReadonlySet<OrderEffect> = new Set(['notify_paid', 'payout']);

export async function performEffects(
  deps: OrdersDeps,
  record: OrderRecord,
  effects: readonly OrderEffect[],
  now: Date,
  defer = false,
): Promise<void> {
  for (const effect of effects) {
    if (defer && DEFERRED.has(effect)) continue;
    switch (effect) {
      case 'updated':
        await Promise.all(
          [record.buyer.id, record.seller.id].map((userId) =>
            deps.publish(userId, {
              type: 'order.updated',
              orderId: record.id,
              status: record.status,
            }),
          ),
        );
        break;
      case 'honour':
        await honour(deps, record, now, defer);
        break;
      case 'refund':
        await refundAll(deps, record.id, now);
        break;
      case 'refund_extra':
        await refundPayments(deps, record.id, now, (payment) => payment.extra === true);
        break;
      case 'release_booking':
        await releaseBooking(deps, record);
        break;
      case 'expire_session':
        if (record.session_id !== null) await deps.payments.expireCheckout(record.session_id);
        break;
      case 'return_copies':
        await returnCopies(deps, record.id, now);
        break;
      case 'payout':
        await payout(deps, record.id, now);
        break;
      case 'reverse_payouts':
        await reversePayouts(deps, record.id, now, { clawBack: false });
        break;
      case 'freeze_payouts':
        await patchOrder(
          deps,
          record.id,
          (current) =>
            current.transfers.some(
              (entry) => entry.state === 'held' || entry.state === 'waiting_account',
            )
              ? {
                  transfers: current.transfers.map((entry) =>
                    entry.state === 'held' || entry.state === 'waiting_account'
                      ? { ...entry, state: 'frozen' as const }
                      : entry,
                  ),
                }
              : null,
          now,
        );
        break;
      case 'claw_back':
        await reversePayouts(deps, record.id, now, { clawBack: true });
        break;
      case 'unfreeze_payouts':
        await unfreezePayouts(deps, record.id, now);
        break;
      case 'notify_dispute':
        await notifyDispute(deps, record);
        break;
      case 'charge_balance':
        await chargeBalance(deps, record, now);
        break;
      case 'schedule_release':
        if (record.release_at !== null) await deps.startPayoutRelease(record.id, record.release_at);
        break;
      case 'notify_paid': {
        const amount = record.payments
          .filter((payment) => payment.status === 'succeeded')
          .reduce((sum, payment) => sum + payment.amount, 0);
        await deps.notify({
          to: record.buyer.id,
          activity: 'market_orderpaid',
          eventKey: `order:${record.id}:${record.status}:buyer`,
          sourceid: record.seller.id,
          payload: { ...payloadOf(deps, record, amount), sourcenick: record.seller.nick },
        });
        await deps.notify({
          to: record.seller.id,
          activity: 'market_ordercreated',
          eventKey: `order:${record.id}:${record.status}:seller`,
          sourceid: record.buyer.id,
          payload: { ...payloadOf(deps, record, amount), sourcenick: record.buyer.nick },
        });
        break;
      }
      case 'notify_shipped':
        await deps.notify({
          to: record.buyer.id,
          activity: 'update_order',
          eventKey: `order:${record.id}:shipped`,
          sourceid: record.seller.id,
          payload: { ...payloadOf(deps, record), sourcenick: record.seller.nick },
        });
        break;
      case 'notify_received':
        await deps.notify({
          to: record.seller.id,
          activity: 'update_order',
          eventKey: `order:${record.id}:received`,
          sourceid: record.buyer.id,
          payload: { ...payloadOf(deps, record), sourcenick: record.buyer.nick },
        });
        break;
      case 'notify_cancelled':
        for (const party of [record.buyer, record.seller]) {
          await deps.notify({
            to: party.id,
            activity: 'market_ordercancelled',
            eventKey: `order:${record.id}:cancelled:${party.id}`,
            payload: payloadOf(deps, record),
          });
        }
        break;
      case 'notify_expired':
        await deps.notify({
          to: record.buyer.id,
          activity: 'update_order',
          eventKey: `order:${record.id}:payment_expired`,
          payload: payloadOf(deps, record),
        });
        break;
      case 'notify_payment_due':
        await deps.notify({
          to: record.buyer.id,
          activity: 'market_paymentdue',
          eventKey: `order:${record.id}:due:${record.version}`,
          sourceid: record.seller.id,
          payload: payloadOf(deps, record),
        });
        break;
    }
  }
}

/**
 * The copies change owner (issue 12 §4): in ONE transaction the order becomes paid (or
 * checkout_complete for a deposit), the offering loses the copies (sold when none are left), each
 * copy moves to the buyer with its next provenance record (`sold`, price, order), and both
 * holdings and the market activity follow. A copy of the booking that is no longer to be had is
 * replaced by another free copy of the offering; when the offering cannot give them all, the
 * payment is refunded (`payment_expired`).
 */
async function honour(
  deps: OrdersDeps,
  known: OrderRecord,
  now: Date,
  defer: boolean,
): Promise<void> {
  const at = now.toISOString();
  const orderId = known.id;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    // The order as just written on the first attempt; read again after a lost race.
    const order = attempt === 0 ? known : await deps.repo.get(orderId);
    if (order?.status !== 'payment_intent_success') {
      // Another writer made the sale first. It may have been the waiting call, which leaves the
      // sale's aftermath (payouts, notifications, market, wallet) to the webhook: a webhook that
      // lost the race does it now. Each piece is idempotent, so a winner that did it too is fine.
      if (attempt > 0 && !defer) await settleAfterPayment(deps, orderId, now);
      return;
    }
    const [offering, item, copies] = await Promise.all([
      deps.offerings.get(order.offering_id),
      deps.items.getItem(order.item.id),
      allCopies(deps.items, order.item.id),
    ]);
    if (offering === undefined || item === undefined) {
      await notHonourable(deps, orderId, now);
      return;
    }
    const chosen = chooseCopies(order, copies, offering.id, now);
    const sale = saleOf(deps.repo.tableName, offering, order.quantity, now);
    if (chosen === null || !sale.ok) {
      await notHonourable(deps, orderId, now);
      return;
    }
    const outcome = transition(order, { type: 'honoured' }, now);
    if (!outcome.ok) return;
    const [histories, sellerHolding, buyerHolding] = await Promise.all([
      Promise.all(chosen.map((copy) => deps.items.lastHistory(copy.nftuniqueid))),
      deps.items.getHolding(order.seller.id, order.item.id),
      deps.items.getHolding(order.buyer.id, order.item.id),
    ]);
    // Read between another writer's steps (a concurrent honour of the same payment, another sale
    // of the offering moving the seller's holding on): read the order again, which decides.
    if (chosen.some((copy, index) => histories[index]?.hash !== copy.head)) continue;
    if ((sellerHolding?.count ?? 0) < order.quantity) continue;
    const next: OrderRecord = {
      ...order,
      ...outcome.state,
      serials: chosen.map((copy) => copy.serial).sort((a, b) => a - b),
      transfers: [...order.transfers, ...heldTransfers(order)],
      timeline: [...order.timeline, { status: outcome.state.status, label: outcome.label, at }],
      updated_at: at,
      version: order.version + 1,
    };
    const summary = summaryOf(item);
    const pieces = [
      deps.repo.orderPiece(next, order.version),
      sale.piece,
      ...chosen.flatMap((copy, index) => {
        const previous = histories[index];
        if (previous === undefined) throw new Error(`copy ${copy.nftuniqueid} has no history`);
        return saleCopyPieces(deps.repo.tableName, {
          itemId: copy.item_id,
          serial: copy.serial,
          nftuniqueid: copy.nftuniqueid,
          from: order.seller,
          to: order.buyer,
          previous,
          at,
          orderId: order.id,
          price: { amount: order.unit_price, currency: order.currency },
          offeringId: offering.id,
          now: at,
        });
      }),
      holdingChangePiece(deps.repo.tableName, {
        ownerId: order.seller.id,
        itemId: order.item.id,
        delta: -order.quantity,
        current: sellerHolding,
        summary,
      }),
      holdingChangePiece(deps.repo.tableName, {
        ownerId: order.buyer.id,
        itemId: order.item.id,
        delta: order.quantity,
        current: buyerHolding,
        summary,
      }),
      deps.repo.activityPiece(order.seller.id, order.id, 'seller'),
    ];
    if (!(await deps.repo.commit(pieces))) continue;
    // Paid another way (the saved card): the payment page must not take a second payment.
    if (next.session_id !== null) await deps.payments.expireCheckout(next.session_id);
    if (!defer) {
      await deps.offerings.afterSale(sale.next, sale.effects);
      await writePaymentLines(deps, next);
    }
    await performEffects(deps, next, outcome.effects, now, defer);
    return;
  }
  throw new DomainError('unavailable', { message: 'The order is busy; try again.' });
}

async function writePaymentLines(deps: OrdersDeps, record: OrderRecord): Promise<void> {
  for (const payment of record.payments) {
    if (payment.extra === true || (payment.status !== 'succeeded' && payment.status !== 'refunded'))
      continue;
    await deps.repo.putWalletEntry(record.buyer.id, paymentLine(record, payment));
  }
}

/** The booked copies still to be had, topped up with other free copies of the offering. */
function chooseCopies(
  order: OrderRecord,
  copies: readonly CopyRecord[],
  offeringId: string,
  now: Date,
): CopyRecord[] | null {
  // An auction's buy-now paid after its booking ran out: its copies went back to the bidding, so
  // the payment is refunded rather than taking copies the lot counts on.
  if (order.buy_now === true && order.status === 'order_expired') return null;
  const at = now.toISOString();
  const usable = (copy: CopyRecord) =>
    copy.status === 'blocked' &&
    copy.offering_id === offeringId &&
    copy.owner_id === order.seller.id &&
    (copy.order_id === undefined || copy.order_id === order.id || (copy.booked_until ?? '') < at);
  const mine = copies.filter((copy) => order.serials.includes(copy.serial) && usable(copy));
  if (mine.length >= order.quantity) return mine.slice(0, order.quantity);
  const others = bookableCopies(copies, offeringId, now).filter(
    (copy) => !mine.includes(copy) && copy.owner_id === order.seller.id,
  );
  const chosen = [...mine, ...others.slice(0, order.quantity - mine.length)];
  return chosen.length === order.quantity ? chosen : null;
}

function partyUser(record: OrderRecord, party: StoredTransfer['party']): OrderParty | null {
  if (party === 'seller') return record.seller;
  if (party === 'creator') return record.creator;
  return record.beneficiary === null
    ? null
    : { id: record.beneficiary.id, nick: record.beneficiary.nick };
}

/** The shares of each succeeded payment, held until the order is fulfilled. */
function heldTransfers(record: OrderRecord): StoredTransfer[] {
  const transfers: StoredTransfer[] = [];
  for (const payment of record.payments) {
    if (payment.status !== 'succeeded' || payment.charge_id === null) continue;
    if (payment.extra === true) continue;
    if (record.transfers.some((entry) => entry.charge_id === payment.charge_id)) continue;
    for (const share of payoutsOf(splitOf(record, payment.amount))) {
      const user = partyUser(record, share.party);
      if (user === null) continue;
      transfers.push({
        party: share.party,
        user,
        amount: share.amount.amount,
        charge_id: payment.charge_id,
        state: 'held',
        transfer_id: null,
      });
    }
  }
  return transfers;
}

async function notHonourable(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  await applyOrderEvent(deps, orderId, { type: 'not_honourable' }, now, { strict: false });
}

/**
 * Refunds what is left of every payment of the order (a cancel, a late payment that cannot be
 * honoured), then marks the shares not paid out as reversed: they never will be.
 */
async function refundAll(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  await refundPayments(deps, orderId, now, () => true);
  // The transfers a refund takes back are marked by reverse_payouts; held shares are simply
  // never paid: mark them reversed so the page tells the truth.
  await patchOrder(
    deps,
    orderId,
    (current) =>
      current.transfers.some((entry) => entry.state === 'held' || entry.state === 'waiting_account')
        ? {
            transfers: current.transfers.map((entry) =>
              entry.state === 'held' || entry.state === 'waiting_account'
                ? { ...entry, state: 'reversed' as const }
                : entry,
            ),
          }
        : null,
    now,
  );
}

/**
 * Refunds the order's succeeded payments that `which` selects, each once (keyed by payment; only
 * what is left of it), marks them refunded and writes their wallet lines: the refund, and for an
 * extra payment the charge too (it never had one as a payment of the order).
 */
async function refundPayments(
  deps: OrdersDeps,
  orderId: string,
  now: Date,
  which: (payment: StoredPayment) => boolean,
): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  for (const payment of record.payments) {
    const intentId = payment.payment_intent_id;
    // Refunded payments are done; one whose refund stopped short of marking it is found again.
    if (intentId === null || payment.status !== 'succeeded' || !which(payment)) continue;
    await deps.payments.refund({
      paymentIntentId: intentId,
      orderId,
      idempotencyKey: `refund:${orderId}:${intentId}`,
    });
    const updated = await markRefunded(deps, orderId, intentId, payment.amount, now);
    // Stripe's refunds of the payment (a retry after a cut-short attempt finds the one it made).
    await writeRefundLines(deps, updated, payment, await deps.payments.refundsOf(intentId));
  }
}

/** Records a payment refunded (`refunded` of it so far), and the order's total refunded. */
export async function markRefunded(
  deps: OrdersDeps,
  orderId: string,
  paymentIntentId: string,
  refunded: number,
  now: Date,
): Promise<OrderRecord> {
  return patchOrder(
    deps,
    orderId,
    (current) => {
      const index = current.payments.findIndex(
        (entry) => entry.payment_intent_id === paymentIntentId,
      );
      const stored = current.payments[index];
      if (stored === undefined || stored.refunded >= refunded) return null;
      const payments = [...current.payments];
      payments[index] = {
        ...stored,
        refunded,
        status: refunded >= stored.amount ? 'refunded' : stored.status,
      };
      return {
        payments,
        refunded: payments.reduce((sum, entry) => sum + entry.refunded, 0),
      };
    },
    now,
  );
}

/**
 * The buyer's wallet lines of a payment's refunds, one per Stripe refund (ours or made in Stripe's
 * dashboard: the same key either way); an extra payment also gets its own payment line.
 */
export async function writeRefundLines(
  deps: OrdersDeps,
  record: OrderRecord,
  payment: StoredPayment,
  refunds: readonly RefundFacts[],
): Promise<void> {
  if (refunds.length === 0) return;
  if (payment.extra === true) {
    await deps.repo.putWalletEntry(record.buyer.id, paymentLine(record, payment));
  }
  for (const refund of refunds) {
    await deps.repo.putWalletEntry(record.buyer.id, {
      ...paymentLine(record, payment),
      id: refund.refund_id,
      date: refund.created,
      event: 'refund',
      amount: refund.amount,
      amount_paid: 0,
      amount_received: refund.amount,
      app_commission: 0,
      total: refund.amount,
      receipt: null,
    });
  }
}

/** Ends the booking of the order's copies (an order that was not paid in time). */
async function releaseBooking(deps: OrdersDeps, record: OrderRecord): Promise<void> {
  const offering = await deps.offerings.get(record.offering_id);
  const over = offering?.status !== 'validated';
  for (const serial of record.serials) {
    await deps.repo.commit([
      {
        Update: releaseBookingUpdate(deps.repo.tableName, {
          itemId: record.item.id,
          serial,
          orderId: record.id,
          toSeller: over,
        }),
      },
    ]);
  }
  if (over) return;
  // The offering may have ended while this booking held them: its release skipped booked copies.
  const now = await deps.offerings.get(record.offering_id);
  if (now?.status === 'validated') return;
  for (const serial of record.serials) {
    await deps.repo.commit([
      {
        Update: returnUnbookedCopyUpdate(deps.repo.tableName, {
          itemId: record.item.id,
          serial,
          offeringId: record.offering_id,
        }),
      },
    ]);
  }
}

/**
 * A cancelled or refunded sale: the copies the buyer still holds go back to the seller (available,
 * unlisted), each with a `refunded` provenance record, and both holdings follow — one transaction.
 * A seller's cancel wrote them back with its status (cancelOrder, `copiesBackPieces`), so this
 * finds nothing left; a refund made outside (Stripe's dashboard) takes back what it can and logs
 * the rest.
 */
async function returnCopies(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record = await deps.repo.get(orderId);
    if (record === undefined) return;
    const pieces = await copiesBackPieces(deps, record, now, { all: false });
    if (pieces === null) continue;
    if (pieces.length === 0 || (await deps.repo.commit(pieces))) return;
  }
  throw new DomainError('unavailable', { message: 'The order is busy; try again.' });
}

/**
 * The writes that give the seller back the sale's copies the buyer still holds (available, owned
 * by the buyer), with their provenance and both holdings; [] when none is left. With `all`, a copy
 * the buyer listed, blocked or passed on since refuses it (`orders.errors.copies_not_returnable`):
 * a cancel never refunds the buyer and leaves them the copies. null: read between another
 * writer's steps (read again).
 */
export async function copiesBackPieces(
  deps: OrdersDeps,
  record: OrderRecord,
  now: Date,
  options: { all: boolean },
): Promise<TransactItem[] | null> {
  const at = now.toISOString();
  const copies = await Promise.all(
    record.serials.map((serial) => deps.items.getCopy(record.item.id, serial)),
  );
  const held = copies.filter(
    (copy): copy is CopyRecord =>
      copy !== undefined && copy.owner_id === record.buyer.id && copy.status === 'available',
  );
  // The buyer's copies that cannot come back (listed, blocked or passed on since); those already
  // back with the seller (a cancel's own write) are done.
  const kept = copies
    .filter(
      (copy) => copy !== undefined && !held.includes(copy) && copy.owner_id !== record.seller.id,
    )
    .map((copy) => copy?.nftuniqueid);
  if (kept.length > 0) {
    if (options.all) {
      throw new DomainError('orders.errors.copies_not_returnable', {
        message:
          'The buyer has listed or moved these copies since: they cannot come back, so the order cannot be cancelled.',
        details: { copies: kept },
      });
    }
    logger.warn('a refunded order: copies the buyer listed or moved stay with the buyer', {
      orderId: record.id,
      copies: kept,
    });
  }
  if (held.length === 0) return [];
  const item = await deps.items.getItem(record.item.id);
  if (item === undefined) return [];
  const [histories, sellerHolding, buyerHolding] = await Promise.all([
    Promise.all(held.map((copy) => deps.items.lastHistory(copy.nftuniqueid))),
    deps.items.getHolding(record.seller.id, record.item.id),
    deps.items.getHolding(record.buyer.id, record.item.id),
  ]);
  if (held.some((copy, index) => histories[index]?.hash !== copy.head)) return null;
  if ((buyerHolding?.count ?? 0) < held.length) return null;
  const summary = summaryOf(item);
  return [
    ...held.flatMap((copy, index) => {
      const previous = histories[index];
      if (previous === undefined) throw new Error(`copy ${copy.nftuniqueid} has no history`);
      return refundCopyPieces(deps.repo.tableName, {
        itemId: copy.item_id,
        serial: copy.serial,
        nftuniqueid: copy.nftuniqueid,
        from: record.buyer,
        to: record.seller,
        previous,
        at,
        orderId: record.id,
        price: { amount: record.unit_price, currency: record.currency },
      });
    }),
    holdingChangePiece(deps.repo.tableName, {
      ownerId: record.buyer.id,
      itemId: record.item.id,
      delta: -held.length,
      current: buyerHolding,
      summary,
    }),
    holdingChangePiece(deps.repo.tableName, {
      ownerId: record.seller.id,
      itemId: record.item.id,
      delta: held.length,
      current: sellerHolding,
      summary,
    }),
  ];
}

/**
 * Releases the held shares (issue 12 §4 payouts): one transfer per party and charge, from that
 * charge (`source_transaction`), grouped by the order. A party without a connected account that
 * can receive transfers waits (`waiting_account`).
 */
async function payout(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  const pending = [
    ...record.transfers.filter(
      (entry) => entry.state === 'held' || entry.state === 'waiting_account',
    ),
    ...heldTransfers(record),
  ];
  for (const entry of pending) {
    const account = await deps.payments.payoutAccountOf(entry.user.id);
    let made: StoredTransfer;
    if (account === undefined) {
      // Paid once they can receive it: their onboarding's account.updated runs the payout again.
      made = { ...entry, state: 'waiting_account' };
      await deps.repo.markWaiting(entry.user.id, orderId, true);
    } else {
      // What the account owes the platform (a reversal Stripe refused) is kept back first, once
      // per share: a payout racing this one (the timer and the webhook) finds the same amount kept.
      const netted = await deps.repo.settleOwed({
        userId: entry.user.id,
        currency: record.currency,
        upTo: entry.amount,
        ref: `net#${orderId}#${entry.party}#${entry.charge_id}${
          entry.round === undefined ? '' : `#r${entry.round}`
        }`,
        orderId,
        at: now.toISOString(),
        reason: 'netted',
      });
      const amount = entry.amount - netted;
      const outcome =
        amount > 0
          ? await deps.payments.transfer({
              accountId: account,
              amount,
              currency: record.currency,
              orderId,
              chargeId: entry.charge_id,
              party: entry.party,
              idempotencyKey: `payout:${orderId}:${entry.party}:${entry.charge_id}${
                entry.round === undefined ? '' : `:r${entry.round}`
              }`,
            })
          : null;
      if (outcome?.status === 'refused') {
        // Stripe refused it for good (its charge refunded in part meanwhile, an account that
        // cannot receive it): the share is blocked for support, and the rest goes on.
        await patchTransfer(
          deps,
          orderId,
          entry,
          { ...entry, state: 'blocked', blocked_reason: outcome.code },
          now,
        );
        continue;
      }
      const transfer = outcome;
      made = {
        ...entry,
        state: 'paid',
        transfer_id: transfer?.transfer_id ?? null,
        ...(netted > 0 ? { netted } : {}),
      };
      if (entry.state === 'waiting_account')
        await deps.repo.markWaiting(entry.user.id, orderId, false);
      if (transfer !== null) {
        await deps.repo.putWalletEntry(entry.user.id, {
          id: transfer.transfer_id,
          date: transfer.created,
          event: 'payout',
          type: walletTypeOf(entry.party),
          currency: record.currency as WalletActivity['currency'],
          amount,
          amount_paid: 0,
          amount_received: amount,
          app_commission: 0,
          total: amount,
          receipt: null,
          tx_id: transfer.transfer_id,
          description: `${record.item.title} × ${record.quantity}`,
          order_id: orderId,
        });
      }
      await deps.notify({
        to: entry.user.id,
        activity: entry.party === 'creator' ? 'market_royaltypaid' : 'market_payoutsent',
        eventKey: `order:${orderId}:payout:${entry.party}:${entry.charge_id}`,
        payload: payloadOf(deps, record, amount),
      });
    }
    await patchTransfer(deps, orderId, entry, made, now);
  }
}

function walletTypeOf(party: StoredTransfer['party']): WalletActivity['type'] {
  return party === 'seller' ? 'sale' : party === 'creator' ? 'royalty' : 'beneficiary';
}

/** Records one share's transfer as `made` (matched by party and charge). */
async function patchTransfer(
  deps: OrdersDeps,
  orderId: string,
  entry: StoredTransfer,
  made: StoredTransfer,
  now: Date,
): Promise<void> {
  await patchOrder(
    deps,
    orderId,
    (current) => {
      const index = current.transfers.findIndex(
        (stored) => stored.party === entry.party && stored.charge_id === entry.charge_id,
      );
      const stored = index === -1 ? undefined : current.transfers[index];
      if (stored !== undefined && stored.state === made.state) return null;
      const transfers = [...current.transfers];
      if (index === -1) transfers.push(made);
      else transfers[index] = made;
      return { transfers };
    },
    now,
  );
}

/**
 * Takes back the shares already transferred (a cancelled or refunded order), each in full. A
 * reversal Stripe refuses (the account's balance cannot cover it) does not stop the rest: the
 * share is marked `reversal_failed`, what the account owes is recorded (support sees it; its next
 * payouts keep it back), and the other reversals and the cancel's other steps go on.
 */
async function reversePayouts(
  deps: OrdersDeps,
  orderId: string,
  now: Date,
  options: { clawBack: boolean },
): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  // A dispute takes back only what was paid out (the rest is frozen, decided with the dispute);
  // a cancel or a refund settles every share.
  const mark = options.clawBack ? { clawed_back: true as const } : {};
  for (const entry of record.transfers) {
    if (entry.state === 'reversed' || entry.state === 'reversal_failed') continue;
    if (options.clawBack && entry.state !== 'paid') continue;
    if (entry.state === 'paid' && (entry.netted ?? 0) > 0) {
      // Part of the share paid off the account's debt: the sale undone, that debt is back.
      await deps.repo.addOwed({
        userId: entry.user.id,
        currency: record.currency,
        amount: entry.netted ?? 0,
        ref: `unnet#${orderId}#${entry.party}#${entry.charge_id}${
          entry.round === undefined ? '' : `#r${entry.round}`
        }`,
        orderId,
        at: now.toISOString(),
        reason: 'netted_share_cancelled',
      });
    }
    if (entry.state !== 'paid' || entry.transfer_id === null) {
      // Never paid out (held, waiting, or kept back in full against a debt): nothing to take.
      await patchTransfer(deps, orderId, entry, { ...entry, state: 'reversed' }, now);
      continue;
    }
    const transferred = entry.amount - (entry.netted ?? 0);
    const reversal = await deps.payments.reverseTransfer({
      transferId: entry.transfer_id,
      orderId,
      idempotencyKey: `reverse:${entry.transfer_id}`,
    });
    if (reversal?.status === 'refused') {
      await deps.repo.addOwed({
        userId: entry.user.id,
        currency: record.currency,
        amount: reversal.amount,
        ref: `reversal#${entry.transfer_id}`,
        orderId,
        at: now.toISOString(),
        reason: reversal.code,
      });
      logger.warn('a transfer reversal was refused: the account owes it', {
        orderId,
        transferId: entry.transfer_id,
        userId: entry.user.id,
        owed: reversal.amount,
        code: reversal.code,
      });
      await patchTransfer(
        deps,
        orderId,
        entry,
        { ...entry, state: 'reversal_failed', owed: reversal.amount, ...mark },
        now,
      );
      continue;
    }
    if (reversal !== null) {
      await deps.repo.putWalletEntry(entry.user.id, {
        id: `reversal-${entry.transfer_id}`,
        date: reversal.created,
        event: 'reversal',
        type: walletTypeOf(entry.party),
        currency: record.currency as WalletActivity['currency'],
        amount: transferred,
        amount_paid: transferred,
        amount_received: 0,
        app_commission: 0,
        total: -transferred,
        receipt: null,
        tx_id: entry.transfer_id,
        description: `${record.item.title} × ${record.quantity}`,
        order_id: orderId,
      });
    }
    await patchTransfer(deps, orderId, entry, { ...entry, state: 'reversed', ...mark }, now);
  }
}

/**
 * A dispute won: the shares frozen while it was open are held again, the ones taken back are due
 * again (paid in a new round: a new transfer, keyed by it), and a take-back Stripe refused is
 * cancelled (the transfer stands; the debt it made is written off). They are paid out now when the
 * order's payouts are released already, else at their release.
 */
async function unfreezePayouts(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  for (const entry of record.transfers) {
    if (
      entry.clawed_back === true &&
      entry.state === 'reversal_failed' &&
      entry.transfer_id !== null
    ) {
      await deps.repo.addOwed({
        userId: entry.user.id,
        currency: record.currency,
        amount: -(entry.owed ?? 0),
        ref: `unclaw#${entry.transfer_id}`,
        orderId,
        at: now.toISOString(),
        reason: 'dispute_won',
      });
    }
  }
  const after = await patchOrder(
    deps,
    orderId,
    (current) => {
      const transfers = current.transfers.map((entry): StoredTransfer => {
        if (entry.state === 'frozen') return { ...entry, state: 'held' };
        if (entry.clawed_back !== true) return entry;
        const { clawed_back: _clawed, owed: _owed, ...rest } = entry;
        return entry.state === 'reversal_failed'
          ? { ...rest, state: 'paid' }
          : { ...rest, state: 'held', transfer_id: null, round: (entry.round ?? 0) + 1 };
      });
      return transfers.some((entry, index) => entry !== current.transfers[index])
        ? { transfers }
        : null;
    },
    now,
  );
  if (payoutsReleased(after)) await payout(deps, orderId, now);
}

/** The seller and support told of the order's dispute (opened, won or lost), once each. */
async function notifyDispute(deps: OrdersDeps, record: OrderRecord): Promise<void> {
  const dispute = record.dispute;
  if (dispute === undefined || dispute === null) return;
  const activity =
    dispute.status === 'open'
      ? 'market_disputeopened'
      : dispute.status === 'won'
        ? 'market_disputewon'
        : 'market_disputelost';
  const to = new Set([record.seller.id, ...(await deps.supportUserIds())]);
  for (const userId of to) {
    await deps.notify({
      to: userId,
      activity,
      eventKey: `dispute:${dispute.id}:${dispute.status}:${userId}`,
      sourceid: record.buyer.id,
      payload: { ...payloadOf(deps, record, dispute.amount), reason: dispute.reason },
    });
  }
}

/**
 * A deposit order's balance, charged off session to the buyer's default saved card on the
 * order's balance PaymentIntent. A card's refusal (or no card) is recorded for the buyer to pay on
 * the order page; a provider's failure throws (the seller's call answers 503 and its retry, or the
 * sweeper, charges the same intent again).
 */
async function chargeBalance(deps: OrdersDeps, record: OrderRecord, now: Date): Promise<void> {
  await payWithCard(
    deps,
    record,
    {
      kind: 'balance',
      paymentMethod: undefined,
      offSession: true,
      returnPath: `/account/orders/${record.id}`,
    },
    now,
  );
}

/** What an order's buyer owes now as one charge (docs/payments.md), of the given kind. */
export function chargeOfKind(record: OrderRecord, kind: StoredPayment['kind']): OrderCharge {
  const unitAmount =
    kind === 'balance'
      ? record.unit_price - (record.unit_deposit ?? 0)
      : kind === 'deposit'
        ? (record.unit_deposit ?? record.unit_price)
        : record.unit_price;
  return {
    orderId: record.id,
    userId: record.buyer.id,
    kind,
    name: record.item.title,
    currency: record.currency,
    unitAmount,
    quantity: record.quantity,
  };
}

/**
 * Pays one charge of an order with a saved card (the buyer's pay call, an auction winner's card
 * at the close, a deposit order's balance): on the order's one PaymentIntent for that kind of
 * charge, created once (`pay:<orderId>:<kind>`, whatever the order's version) and kept on the
 * order, then confirmed with the card. Two tabs, a double click, a retried call or task confirm
 * the same intent, which Stripe lets succeed once; an attempt already paid or waiting on the bank
 * is answered as it stands. The outcome is recorded (recordPayment); a card's refusal is an
 * outcome, a provider's failure throws, no card at all is recorded as `checkout.errors.no_card`.
 */
export async function payWithCard(
  deps: OrdersDeps,
  record: OrderRecord,
  input: {
    kind: StoredPayment['kind'];
    paymentMethod: string | undefined;
    offSession: boolean;
    returnPath: string;
  },
  now: Date,
  options: { defer?: boolean } = {},
): Promise<{ facts: PaymentFacts | null; order: AppliedOrder }> {
  const charge = chargeOfKind(record, input.kind);
  const kept = record.card_intents?.[input.kind];
  let intentId = kept;
  if (intentId === undefined) {
    intentId = await deps.payments.openIntent(
      charge,
      { idempotencyKey: `pay:${record.id}:${input.kind}` },
      now,
    );
    const opened = intentId;
    await patchOrder(
      deps,
      record.id,
      (current) =>
        current.card_intents?.[input.kind] === opened
          ? null
          : { card_intents: { ...current.card_intents, [input.kind]: opened } },
      now,
    );
  }
  let facts: PaymentFacts;
  try {
    facts = await deps.payments.confirmIntent(
      intentId,
      {
        userId: record.buyer.id,
        paymentMethod: input.paymentMethod,
        offSession: input.offSession,
        returnPath: input.returnPath,
        fresh: kept === undefined,
      },
      now,
    );
  } catch (error) {
    // Off session nobody is there to choose another card: no card (none saved, or the bid's card
    // removed since) is recorded, and the buyer pays on the order page. On session it is answered.
    if (!input.offSession || !isCardMissing(error)) throw error;
    const order = await applyOrderEvent(
      deps,
      record.id,
      { type: 'payment_failed', code: 'checkout.errors.no_card' },
      now,
      { strict: false },
    );
    return { facts: null, order };
  }
  const order = await recordPayment(
    deps,
    record.id,
    {
      ...facts,
      kind: facts.kind === 'deposit' || facts.kind === 'balance' ? facts.kind : input.kind,
    },
    now,
    options,
  );
  return { facts, order };
}

/** The buyer has no saved card to pay with (a domain outcome, not the provider's failure). */
export function isCardMissing(error: unknown): boolean {
  return (
    error instanceof DomainError &&
    (error.code === 'checkout.errors.no_card' || error.code === 'payments.errors.card_not_found')
  );
}

/** Stripe's word on one payment of an order, as recordPayment takes it. */
export interface PaymentOutcome {
  kind: StoredPayment['kind'];
  payment_intent_id: string;
  /** Stripe's status (`succeeded`, `requires_action`, `processing`, `requires_payment_method`…). */
  status: string;
  amount: number;
  charge_id: string | null;
  receipt_url: string | null;
  error_code: string | null;
}

/**
 * What a payment's outcome means for the order (shared by the webhooks, the calls and the tasks),
 * through the order's machine: the first payment of what is due pays it (the honour follows),
 * money not asked for is refunded, a failure is recorded while the order can still be paid.
 */
export async function recordPayment(
  deps: OrdersDeps,
  orderId: string,
  outcome: PaymentOutcome,
  now: Date,
  options: { defer?: boolean } = {},
): Promise<AppliedOrder> {
  const defer = options.defer === true;
  const payment = {
    kind: outcome.kind,
    payment_intent_id: outcome.payment_intent_id,
    amount: outcome.amount,
    charge_id: outcome.charge_id,
    receipt_url: outcome.receipt_url,
  };
  if (outcome.status === 'succeeded') {
    const applied = await applyOrderEvent(
      deps,
      orderId,
      { type: 'payment_succeeded', payment },
      now,
      { strict: false, defer },
    );
    if (!applied.applied && !defer) {
      // A replay (the webhook after the saved-card call, or a redelivery): the sale's idempotent
      // aftermath is repeated, in case a crash cut it short.
      await settleAfterPayment(deps, orderId, now);
    }
    return applied;
  }
  if (outcome.status === 'requires_action' || outcome.status === 'processing') {
    return applyOrderEvent(
      deps,
      orderId,
      {
        type: 'payment_pending',
        payment,
        status: outcome.status === 'processing' ? 'pending' : 'requires_action',
      },
      now,
      { strict: false },
    );
  }
  return applyOrderEvent(
    deps,
    orderId,
    { type: 'payment_failed', code: outcome.error_code ?? 'checkout.errors.paying', payment },
    now,
    { strict: false },
  );
}

/**
 * The aftermath of a committed sale, repeated safely: the offering's market entries as its
 * current state implies, the order's notifications, and a digital order's payouts.
 */
export async function settleAfterPayment(
  deps: OrdersDeps,
  orderId: string,
  now: Date,
): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  if (record.status === 'payment_intent_success') {
    await honour(deps, record, now, false);
    return;
  }
  if (
    record.status !== 'paid' &&
    record.status !== 'fulfilled' &&
    record.status !== 'checkout_complete'
  ) {
    return;
  }
  const offering = await deps.offerings.get(record.offering_id);
  if (offering !== undefined) await deps.offerings.afterSale(offering, saleEffectsOf(offering));
  await writePaymentLines(deps, record);
  const effects: OrderEffect[] = ['notify_paid'];
  // A digital order's payouts wait for their hold (its timer, started again: idempotent).
  if (record.status === 'fulfilled' && record.delivery === 'none') {
    effects.push(payoutsReleased(record) ? 'payout' : 'schedule_release');
  }
  await performEffects(deps, record, effects, now);
}

/**
 * Finishes what an order's last step left half done (the order sweeper): a sale being honoured is
 * honoured (or found not honourable), and the settling effects of where the order stands run
 * again — each is idempotent and finds little or nothing left to do.
 */
export async function settleOrder(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  if (record.status === 'payment_intent_success') {
    await settleAfterPayment(deps, orderId, now);
    return;
  }
  await performEffects(deps, record, resumeEffects(record), now);
}

export { nftUniqueIdOf };

/**
 * A user can now receive transfers (their payout account is active: account.updated): the shares
 * orders kept waiting for them are paid. Each order's payout is idempotent.
 */
export async function releaseWaitingPayouts(
  deps: OrdersDeps,
  userId: string,
  now: Date,
): Promise<number> {
  const orderIds = await deps.repo.listWaiting(userId, 100);
  for (const orderId of orderIds) {
    const record = await deps.repo.get(orderId);
    const waiting = record?.transfers.some(
      (entry) => entry.user.id === userId && entry.state === 'waiting_account',
    );
    if (record !== undefined && waiting === true && payoutsReleased(record)) {
      await payout(deps, orderId, now);
    } else {
      await deps.repo.markWaiting(userId, orderId, false);
    }
  }
  return orderIds.length;
}
