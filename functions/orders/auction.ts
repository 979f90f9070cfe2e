import { createHash } from 'node:crypto';
import { DomainError } from '../core/errors';
import { newOrderId } from '../core/ids';
import type { PostalAddress } from '../../shared/schemas/orders';
import { applyOrderEvent, payloadOf, payWithCard } from './apply';
import { balanceOwedOf, dueNowOf, type OrderRecord } from './orders';
import { chargeOf } from './payment';
import { bookFreeCopies, newOrderRecord } from './booking';
import type { OrdersDeps } from './ports';

/**
 * Auction orders (issue 13 §4): the close makes one order per offer (a winner's copies at their
 * price, or a substitute's at their own bid), books the copies until the offer's deadline and, for
 * a winner, charges the card that backed the bid off session: the price, or in a deposit auction
 * the listing's deposit per copy (the balance follows as in any deposit order: docs/payments.md). A winner whose card needs them
 * (authentication, a decline) and every substitute pay on the order page before the deadline;
 * the booking-expiry workflow ends an unpaid order then, which hands the copies back to the lot.
 * Every step is idempotent per (offering, bidder, round): the close and the sweeper may race.
 */

export interface AuctionOfferInput {
  offeringId: string;
  buyerId: string;
  quantity: number;
  /** Per copy, minor units. */
  unitPrice: number;
  /** Pay by (ISO). */
  deadline: string;
  /** 0: a winner (charged at once), 1…: a substitute (offered). */
  round: number;
  /** The card that backed the bid. */
  paymentMethod: string | null;
  postaladdress: PostalAddress | null;
}

/** Where an auction order stands for its lot. */
export type OfferState = 'pending' | 'paid' | 'lapsed';

export function offerStateOf(record: OrderRecord): OfferState {
  switch (record.status) {
    case 'paid':
    case 'fulfilled':
    case 'checkout_complete':
      return 'paid';
    case 'cancelled':
    case 'payment_expired':
    case 'order_expired':
      return 'lapsed';
    default:
      return 'pending';
  }
}

function keyOf(input: AuctionOfferInput): string {
  return `auction-${input.offeringId}-r${input.round}`;
}

function fingerprintOf(input: AuctionOfferInput): string {
  return createHash('sha256')
    .update(JSON.stringify({ offering: input.offeringId, round: input.round, q: input.quantity }))
    .digest('hex');
}

/**
 * Makes (or finds) the order of an offer and, for a winner, charges their card once. Answers the
 * order's id and where it stands.
 */
export async function orderAuctionOffer(
  deps: OrdersDeps,
  input: AuctionOfferInput,
  now: Date,
): Promise<{ orderId: string; state: OfferState }> {
  const key = keyOf(input);
  const existing = await deps.repo.getReplay(input.buyerId, key);
  let record: OrderRecord | undefined =
    existing === undefined ? undefined : await deps.repo.get(existing.orderId);
  if (record === undefined) record = await bookOffer(deps, input, key, now);
  const unpaid = record.status === 'accepted' || record.status === 'payment_intent_created';
  if (
    input.round === 0 &&
    unpaid &&
    record.payments.length === 0 &&
    record.payment_error === null
  ) {
    record = await chargeWinner(deps, record, input.paymentMethod, now);
  }
  return { orderId: record.id, state: offerStateOf(record) };
}

async function bookOffer(
  deps: OrdersDeps,
  input: AuctionOfferInput,
  key: string,
  now: Date,
): Promise<OrderRecord> {
  const [buyer, offering] = await Promise.all([
    deps.partyOf(input.buyerId),
    deps.offerings.get(input.offeringId),
  ]);
  if (buyer === undefined || offering === undefined) {
    throw new Error(`auction offer of ${input.offeringId} to ${input.buyerId}: missing party`);
  }
  const item = await deps.items.getItem(offering.item_id);
  if (item === undefined) throw new Error(`auction ${offering.id}: its item is gone`);
  const fingerprint = fingerprintOf(input);
  const orderId = newOrderId(now);
  const base = newOrderRecord({
    orderId,
    offering,
    item,
    buyer,
    quantity: input.quantity,
    unitPrice: input.unitPrice,
    // A deposit auction: its winners pay the listing's deposit per copy at the close (it is below
    // the minimum bid, so below every winning price), the rest when the seller is ready.
    unitDeposit: offering.payment_mode === 'deposit' ? offering.deposit : null,
    subScope: 'auction',
    assignround: input.round === 0 ? 'winner' : 'substitute',
    expiresAt: input.deadline,
    postaladdress: input.postaladdress,
    idempotencyKey: key,
    fingerprint,
    now,
  });
  const replayed = async () => {
    const replay = await deps.repo.getReplay(input.buyerId, key);
    return replay === undefined ? undefined : deps.repo.get(replay.orderId);
  };
  for (let attempt = 0; attempt < 6; attempt += 1) {
    // Another run of the close (the sweeper's, a retry) may have booked this offer meanwhile.
    const found = attempt === 0 ? undefined : await replayed();
    if (found !== undefined) return found;
    const tried = await bookFreeCopies(
      deps,
      {
        base,
        offeringId: offering.id,
        itemId: offering.item_id,
        until: input.deadline,
        idempotency: { key, fingerprint, ttl: Math.floor(Date.parse(input.deadline) / 1000) },
      },
      now,
    );
    if (tried.outcome === 'short') break;
    const { outcome, record } = tried;
    if (outcome === 'booked') {
      await deps.startBookingExpiry(orderId, input.deadline);
      return record;
    }
  }
  const found = await replayed();
  if (found !== undefined) return found;
  // The lot holds exactly the copies it offers: none free means another offer holds them still.
  throw new DomainError('market.buy.errors.booked', {
    message: `Not enough free copies of ${offering.id} for the auction offer.`,
  });
}

/**
 * A winner's card charged off session (the card that backed the bid), on the order's one
 * PaymentIntent: a retried close charges the same intent. A card's refusal or a missing card
 * leaves the order to be paid on its page by the deadline; a provider's failure throws, so the
 * close's retry (or the sweeper) charges again and the lot is not passed on for it.
 */
async function chargeWinner(
  deps: OrdersDeps,
  record: OrderRecord,
  paymentMethod: string | null,
  now: Date,
): Promise<OrderRecord> {
  const started = await applyOrderEvent(deps, record.id, { type: 'checkout_started' }, now, {
    strict: false,
    known: record,
  });
  // The price, or a deposit auction's deposits (the balance is asked for when the seller is ready).
  await payWithCard(
    deps,
    started.record,
    {
      kind: chargeOf(record).kind,
      paymentMethod: paymentMethod ?? undefined,
      offSession: true,
      returnPath: `/account/orders/${record.id}`,
    },
    now,
  );
  const after = (await deps.repo.get(record.id)) ?? record;
  if (offerStateOf(after) === 'pending' && after.payment_error !== null) {
    // The bank wants the buyer, or the card failed: they pay on the order page by the deadline.
    await deps.notify({
      to: after.buyer.id,
      activity: 'market_paymentdue',
      eventKey: `auction:${after.id}:due`,
      sourceid: after.seller.id,
      payload: {
        ...payloadOf(deps, after, dueNowOf(after)),
        time: Date.parse(after.booking_expires_at),
      },
    });
  }
  return after;
}

/** An auction order's copies as its lot shows them (getassignedtokens). */
export interface AuctionOrderCopies {
  order_id: string;
  item_id: string;
  serials: number[];
  state: OfferState;
  pay_by: string;
  /** What the order still owes once paid for: a deposit auction's balance (minor units), else 0. */
  balance_due: number;
}

/** The copies of auction orders (getassignedtokens): which serials, paid or due by when. */
export async function auctionOrderCopies(
  deps: Pick<OrdersDeps, 'repo'>,
  orderIds: readonly string[],
): Promise<AuctionOrderCopies[]> {
  const records = await deps.repo.getMany(orderIds);
  return records.map((record) => ({
    order_id: record.id,
    item_id: record.item.id,
    serials: record.serials,
    state: offerStateOf(record),
    pay_by: record.booking_expires_at,
    balance_due: offerStateOf(record) === 'paid' ? balanceOwedOf(record) : 0,
  }));
}

/** Where each auction order stands (the close reads them every round). */
export async function auctionOfferStates(
  deps: Pick<OrdersDeps, 'repo'>,
  orderIds: readonly string[],
): Promise<Record<string, OfferState>> {
  const records = await deps.repo.getMany(orderIds);
  return Object.fromEntries(records.map((record) => [record.id, offerStateOf(record)]));
}
