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
  nftUniqueIdOf,
  splitOf,
  type OrderParty,
  type OrderRecord,
  type StoredPayment,
  type StoredTransfer,
} from './orders';
import type { OrdersDeps } from './ports';

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
}

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
      timeline:
        outcome.label === 'resume' || outcome.label === 'late_payment'
          ? record.timeline
          : [...record.timeline, { status: outcome.state.status, label: outcome.label, at }],
      updated_at: at,
      version: record.version + 1,
    };
    if (!(await deps.repo.save(next, record.version))) continue;
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
    app_commission: splitOf(record, payment.amount).fee.amount,
    total: payment.amount,
    receipt: payment.receipt_url,
    tx_id: payment.charge_id,
    description: `${record.item.title} × ${record.quantity}`,
    order_id: record.id,
  };
}

/** The idempotent effects that settle an order where it stands (see applyOrderEvent). */
export function resumeEffects(record: OrderRecord): OrderEffect[] {
  switch (record.status) {
    case 'cancelled':
      return ['refund', 'return_copies', 'reverse_payouts'];
    case 'payment_expired':
      return ['refund'];
    case 'fulfilled':
      return record.transfers.some((entry) => entry.state === 'held') ? ['payout'] : [];
    case 'order_expired':
      return ['release_booking'];
    default:
      return [];
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
        await reversePayouts(deps, record.id, now);
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
  for (const payment of record.payments.filter((entry) => entry.status === 'succeeded')) {
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

/** Refunds what is left of every payment of the order (each once: keyed by payment). */
async function refundAll(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  for (const payment of record.payments) {
    if (payment.payment_intent_id === null) continue;
    // Refunded payments are done; a refund that stopped short of marking one is found again
    // (Stripe answers nothing left to refund, and it is marked).
    if (payment.status !== 'succeeded') continue;
    const refund = await deps.payments.refund({
      paymentIntentId: payment.payment_intent_id,
      orderId,
      idempotencyKey: `refund:${orderId}:${payment.payment_intent_id}`,
    });
    const updated = await patchOrder(
      deps,
      orderId,
      (current) => {
        const index = current.payments.findIndex(
          (entry) => entry.payment_intent_id === payment.payment_intent_id,
        );
        const stored = current.payments[index];
        if (stored === undefined || stored.status === 'refunded') return null;
        const payments = [...current.payments];
        payments[index] = { ...stored, status: 'refunded', refunded: stored.amount };
        return { payments, refunded: current.refunded + stored.amount };
      },
      now,
    );
    // Refunded by an earlier attempt that stopped short: the order is marked, the line was made.
    if (refund.refund_id === '') continue;
    await deps.repo.putWalletEntry(updated.buyer.id, {
      ...paymentLine(updated, payment),
      id: refund.refund_id,
      date: refund.created,
      event: 'refund',
      amount_paid: 0,
      amount_received: payment.amount,
      app_commission: 0,
      receipt: null,
    });
  }
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
 */
async function returnCopies(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  const at = now.toISOString();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const record = await deps.repo.get(orderId);
    if (record === undefined) return;
    const copies = await Promise.all(
      record.serials.map((serial) => deps.items.getCopy(record.item.id, serial)),
    );
    const held = copies.filter(
      (copy): copy is CopyRecord =>
        copy !== undefined && copy.owner_id === record.buyer.id && copy.status === 'available',
    );
    const elsewhere = copies.filter(
      (copy) =>
        copy !== undefined && copy.owner_id === record.buyer.id && copy.status !== 'available',
    );
    if (elsewhere.length > 0) {
      logger.warn('cancelled order: copies the buyer listed again stay with the buyer', {
        orderId,
        copies: elsewhere.map((copy) => copy?.nftuniqueid),
      });
    }
    if (held.length === 0) return;
    const item = await deps.items.getItem(record.item.id);
    if (item === undefined) return;
    const [histories, sellerHolding, buyerHolding] = await Promise.all([
      Promise.all(held.map((copy) => deps.items.lastHistory(copy.nftuniqueid))),
      deps.items.getHolding(record.seller.id, record.item.id),
      deps.items.getHolding(record.buyer.id, record.item.id),
    ]);
    // Read between another writer's steps (the copies or the buyer's holding moved on): again.
    if (held.some((copy, index) => histories[index]?.hash !== copy.head)) continue;
    if ((buyerHolding?.count ?? 0) < held.length) continue;
    const summary = summaryOf(item);
    const pieces = [
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
    if (await deps.repo.commit(pieces)) return;
  }
  throw new DomainError('unavailable', { message: 'The order is busy; try again.' });
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
      const transfer = await deps.payments.transfer({
        accountId: account,
        amount: entry.amount,
        currency: record.currency,
        orderId,
        chargeId: entry.charge_id,
        party: entry.party,
        idempotencyKey: `payout:${orderId}:${entry.party}:${entry.charge_id}`,
      });
      made = { ...entry, state: 'paid', transfer_id: transfer.transfer_id };
      if (entry.state === 'waiting_account')
        await deps.repo.markWaiting(entry.user.id, orderId, false);
      await deps.repo.putWalletEntry(entry.user.id, {
        id: transfer.transfer_id,
        date: transfer.created,
        event: 'payout',
        type:
          entry.party === 'seller' ? 'sale' : entry.party === 'creator' ? 'royalty' : 'beneficiary',
        currency: record.currency as WalletActivity['currency'],
        amount: entry.amount,
        amount_paid: 0,
        amount_received: entry.amount,
        app_commission: 0,
        total: entry.amount,
        receipt: null,
        tx_id: transfer.transfer_id,
        description: `${record.item.title} × ${record.quantity}`,
        order_id: orderId,
      });
      await deps.notify({
        to: entry.user.id,
        activity: entry.party === 'creator' ? 'market_royaltypaid' : 'market_payoutsent',
        eventKey: `order:${orderId}:payout:${entry.party}:${entry.charge_id}`,
        payload: payloadOf(deps, record, entry.amount),
      });
    }
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
}

/** Takes back the shares already transferred (a cancelled or refunded order). */
async function reversePayouts(deps: OrdersDeps, orderId: string, now: Date): Promise<void> {
  const record = await deps.repo.get(orderId);
  if (record === undefined) return;
  for (const entry of record.transfers) {
    if (entry.state !== 'paid' || entry.transfer_id === null) continue;
    const reversal = await deps.payments.reverseTransfer({
      transferId: entry.transfer_id,
      orderId,
      idempotencyKey: `reverse:${entry.transfer_id}`,
    });
    if (reversal === null) continue;
    await deps.repo.putWalletEntry(entry.user.id, {
      id: `reversal-${entry.transfer_id}`,
      date: reversal.created,
      event: 'reversal',
      type:
        entry.party === 'seller' ? 'sale' : entry.party === 'creator' ? 'royalty' : 'beneficiary',
      currency: record.currency as WalletActivity['currency'],
      amount: entry.amount,
      amount_paid: entry.amount,
      amount_received: 0,
      app_commission: 0,
      total: -entry.amount,
      receipt: null,
      tx_id: entry.transfer_id,
      description: `${record.item.title} × ${record.quantity}`,
      order_id: orderId,
    });
  }
  await patchOrder(
    deps,
    orderId,
    (current) =>
      current.transfers.some((entry) => entry.state !== 'reversed')
        ? {
            transfers: current.transfers.map((entry) => ({ ...entry, state: 'reversed' as const })),
          }
        : null,
    now,
  );
}

/** A deposit order's balance, charged off session to the buyer's saved card. */
async function chargeBalance(deps: OrdersDeps, record: OrderRecord, now: Date): Promise<void> {
  const unitBalance = record.unit_price - (record.unit_deposit ?? 0);
  const facts = await deps.payments
    .chargeSavedCard(
      {
        orderId: record.id,
        userId: record.buyer.id,
        kind: 'balance',
        name: record.item.title,
        currency: record.currency,
        unitAmount: unitBalance,
        quantity: record.quantity,
      },
      {
        paymentMethod: undefined,
        offSession: true,
        returnPath: `/account/orders/${record.id}`,
        idempotencyKey: `balance:${record.id}:${record.version}`,
      },
      now,
    )
    .catch((error: unknown) => {
      // No saved card (removed since): the buyer must pay in checkout.
      if (error instanceof DomainError) return null;
      throw error;
    });
  if (facts === null) {
    await applyOrderEvent(
      deps,
      record.id,
      { type: 'payment_failed', code: 'checkout.errors.no_card' },
      now,
      {
        strict: false,
      },
    );
    return;
  }
  await recordPayment(deps, record.id, 'balance', facts, now);
}

/** What a payment intent's facts mean for the order (shared by webhooks and the calls). */
export async function recordPayment(
  deps: OrdersDeps,
  orderId: string,
  kind: StoredPayment['kind'],
  facts: {
    payment_intent_id: string;
    status: string;
    amount: number;
    charge_id: string | null;
    receipt_url: string | null;
    error_code: string | null;
  },
  now: Date,
  options: { defer?: boolean } = {},
): Promise<AppliedOrder> {
  const at = now.toISOString();
  const defer = options.defer === true;
  const stored: StoredPayment = {
    kind,
    amount: facts.amount,
    status:
      facts.status === 'succeeded'
        ? 'succeeded'
        : facts.status === 'requires_action'
          ? 'requires_action'
          : facts.status === 'processing'
            ? 'pending'
            : 'failed',
    payment_intent_id: facts.payment_intent_id,
    charge_id: facts.charge_id,
    receipt_url: facts.receipt_url,
    paid_at: facts.status === 'succeeded' ? at : null,
    refunded: 0,
  };
  const upsert = (record: OrderRecord): Partial<OrderRecord> => {
    const index = record.payments.findIndex(
      (entry) => entry.payment_intent_id === facts.payment_intent_id,
    );
    const payments = [...record.payments];
    const existing = index === -1 ? undefined : payments[index];
    // A payment once succeeded (or refunded) stays so; an earlier state is replaced.
    if (
      existing !== undefined &&
      (existing.status === 'succeeded' || existing.status === 'refunded')
    ) {
      return {};
    }
    if (index === -1) payments.push(stored);
    else payments[index] = { ...stored, paid_at: existing?.paid_at ?? stored.paid_at };
    return { payments };
  };
  const paidTwice = (record: OrderRecord) =>
    record.payments.some(
      (entry) =>
        entry.kind === kind &&
        entry.payment_intent_id !== facts.payment_intent_id &&
        (entry.status === 'succeeded' || entry.status === 'refunded'),
    );
  if (facts.status === 'succeeded') {
    const before = await deps.repo.get(orderId);
    if (before === undefined) throw orderNotFound();
    const outcome = paidTwice(before)
      ? { record: before, applied: false }
      : await applyOrderEvent(deps, orderId, { type: 'payment_succeeded', kind }, now, {
          strict: false,
          patch: upsert,
          defer,
          known: before,
        });
    if (!outcome.applied && paidTwice(outcome.record)) {
      // A second payment for what was paid already (a payment page left open after paying with
      // the saved card): never kept. Refunded once (keyed by payment) and recorded as refunded.
      const refund = await deps.payments.refund({
        paymentIntentId: facts.payment_intent_id,
        orderId,
        idempotencyKey: `refund:${orderId}:${facts.payment_intent_id}`,
      });
      const record = await patchOrder(
        deps,
        orderId,
        (current) =>
          current.payments.some((entry) => entry.payment_intent_id === facts.payment_intent_id)
            ? null
            : {
                payments: [
                  ...current.payments,
                  { ...stored, status: 'refunded', refunded: stored.amount },
                ],
                refunded: current.refunded + (refund.amount > 0 ? refund.amount : stored.amount),
              },
        now,
      );
      return { record, applied: false };
    }
    if (!outcome.applied && !defer) {
      // A replay (the webhook after the saved-card call, or a redelivery): the payment is
      // recorded and the sale's idempotent aftermath is repeated, in case a crash cut it short.
      await patchOrder(
        deps,
        orderId,
        (record) => {
          const changes = upsert(record);
          return changes.payments === undefined ? null : changes;
        },
        now,
      );
      await settleAfterPayment(deps, orderId, now);
    }
    return outcome;
  }
  if (facts.status === 'requires_action' || facts.status === 'processing') {
    const record = await patchOrder(
      deps,
      orderId,
      (current) => {
        const changes = upsert(current);
        return changes.payments === undefined ? null : changes;
      },
      now,
    );
    return { record, applied: false };
  }
  return applyOrderEvent(
    deps,
    orderId,
    { type: 'payment_failed', code: facts.error_code ?? 'checkout.errors.paying' },
    now,
    { strict: false, patch: upsert },
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
  if (record.status === 'fulfilled' && record.delivery === 'none') effects.push('payout');
  await performEffects(deps, record, effects, now);
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
    if (record !== undefined && waiting === true && record.status === 'fulfilled') {
      await payout(deps, orderId, now);
    } else {
      await deps.repo.markWaiting(userId, orderId, false);
    }
  }
  return orderIds.length;
}
