import { createHash, randomInt } from 'node:crypto';
import { DomainError } from '../core/errors';
import { requireSameRequest } from '../core/idempotency';
import { newOrderId } from '../core/ids';
import { TIMINGS } from '../../shared/constants/limits';
import type { CurrencyCode } from '../../shared/money';
import type { Order, PostalAddress } from '../../shared/schemas/orders';
import {
  allCopies,
  bookableCopies,
  bookCopyUpdate,
  type CopyRecord,
  type ItemRecord,
} from '../items/index';
import type { OfferingRecord } from '../offerings/index';
import { applyOrderEvent, orderNotFound } from './apply';
import { isBooked } from './order.machine';
import { toOrder, type OrderRecord } from './orders';
import type { TransactItem } from './orders.repo';
import type { OrdersDeps } from './ports';

/**
 * Booking (issue 12 §1; spec 000 §4 "a product booking lasts five minutes", §5 Bid and buy):
 * `POST users/{id}/offering/assigntoken2preorder` and `POST order/create`. The copies are booked
 * for the buyer in one transaction with the new order (each copy conditioned on being free), so
 * two buyers never hold the same copy; the booking-expiry workflow ends the booking at its
 * absolute expiry unless the order was paid.
 */

/** Attempts against copies taken by concurrent bookings before answering "booked". */
const BOOKING_ATTEMPTS = 6;

function notOnSale(): DomainError {
  return new DomainError('market.buy.errors.not_on_sale', {
    message: 'This offering is not on sale.',
  });
}

/** The order's delivery from the item's shipping (physical items only ship or are picked up). */
function deliveryOf(item: ItemRecord): { delivery: Order['delivery']; pickup: Order['pickup'] } {
  if (item.product_type !== 'physical' || item.shipping === null || item.shipping === undefined) {
    return { delivery: 'none', pickup: null };
  }
  if (item.shipping.mode === 'pickup') {
    return {
      delivery: 'pickup',
      pickup: { ...item.shipping.address, instructions: item.shipping.instructions },
    };
  }
  return { delivery: 'delivery', pickup: null };
}

/** Whether the caller may see the offering (private ones: the seller and invitees). */
function visibleTo(offering: OfferingRecord, userId: string): boolean {
  return (
    offering.access === 'public' ||
    offering.seller_id === userId ||
    offering.invited.some((entry) => entry.id === userId)
  );
}

export interface NewOrderInput {
  orderId: string;
  offering: OfferingRecord;
  item: ItemRecord;
  buyer: { id: string; nick: string };
  quantity: number;
  unitPrice: number;
  unitDeposit: number | null;
  subScope: OrderRecord['sub_scope'];
  assignround: OrderRecord['assignround'];
  /** An auction's copies at its buy-now price. */
  buyNow?: boolean;
  /** Until when the copies are booked for the buyer (ISO). */
  expiresAt: string;
  postaladdress: PostalAddress | null;
  idempotencyKey: string | null;
  fingerprint: string;
  now: Date;
}

/** A new order (status accepted) for copies of an offering, before its copies are chosen. */
export function newOrderRecord(input: NewOrderInput): Omit<OrderRecord, 'serials'> {
  const { offering, item, now } = input;
  const iso = now.toISOString();
  const { delivery, pickup } = deliveryOf(item);
  const beneficiaryId = item.beneficiary?.user_id ?? null;
  return {
    id: input.orderId,
    status: 'accepted',
    payment_mode: input.unitDeposit === null ? 'fullprice' : offering.payment_mode,
    delivery,
    fulfilment: 'none',
    booking_expires_at: input.expiresAt,
    release_at: null,
    balance_requested: false,
    payment_error: null,
    cancel_reason: null,
    offering_id: offering.id,
    item: {
      id: item.id,
      title: offering.item.title,
      product_type: offering.item.product_type,
      image: offering.item.image,
    },
    seller: { id: offering.seller_id, nick: offering.seller_nick },
    buyer: input.buyer,
    creator: { id: item.creator_id, nick: item.creator_nick },
    beneficiary:
      item.beneficiary === null || beneficiaryId === null
        ? null
        : { id: beneficiaryId, nick: item.beneficiary.nick, share: item.beneficiary.share },
    royalty_percent: item.royalty,
    first_sale: offering.seller_id === item.creator_id,
    sub_scope: input.subScope,
    assignround: input.assignround,
    ...(input.buyNow === true ? { buy_now: true } : {}),
    quantity: input.quantity,
    currency: offering.currency as CurrencyCode,
    unit_price: input.unitPrice,
    unit_deposit: input.unitDeposit,
    postaladdress: delivery === 'delivery' ? input.postaladdress : null,
    pickup,
    session_id: null,
    session_url: null,
    payments: [],
    transfers: [],
    refunded: 0,
    shipment: null,
    timeline: [{ status: 'accepted', label: 'accepted', at: iso }],
    idempotency_key: input.idempotencyKey,
    fingerprint: input.fingerprint,
    created_at: iso,
    updated_at: iso,
    version: 1,
  };
}

/** Picks `count` of the free copies at random, so concurrent buyers rarely reach for the same. */
export function pick(copies: readonly CopyRecord[], count: number): CopyRecord[] {
  const pool = [...copies];
  for (let index = pool.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [pool[index], pool[other]] = [pool[other] as CopyRecord, pool[index] as CopyRecord];
  }
  return pool.slice(0, count);
}

/**
 * One booking attempt (checkout's and an auction offer's): picks the order's copies among the
 * item's free ones and books them with the order in one transaction. `short` when fewer copies
 * are free than the order needs; otherwise the record with its serials and the repo's outcome.
 */
export async function bookFreeCopies(
  deps: Pick<OrdersDeps, 'items' | 'repo'>,
  booking: {
    base: Omit<OrderRecord, 'serials'>;
    offeringId: string;
    itemId: string;
    until: string;
    idempotency: { key: string; fingerprint: string; ttl: number } | null;
    guard?: TransactItem;
  },
  now: Date,
): Promise<
  { outcome: 'short' } | { outcome: 'booked' | 'taken' | 'replay' | 'guard'; record: OrderRecord }
> {
  const { base } = booking;
  const free = bookableCopies(await allCopies(deps.items, booking.itemId), booking.offeringId, now);
  if (free.length < base.quantity) return { outcome: 'short' };
  const chosen = pick(free, base.quantity);
  const record: OrderRecord = {
    ...base,
    serials: chosen.map((copy) => copy.serial).sort((a, b) => a - b),
  };
  const outcome = await deps.repo.book(
    record,
    chosen.map((copy) => ({
      Update: bookCopyUpdate(deps.repo.tableName, {
        itemId: copy.item_id,
        serial: copy.serial,
        offeringId: booking.offeringId,
        orderId: base.id,
        until: booking.until,
        now: now.toISOString(),
      }),
    })),
    booking.idempotency,
    booking.guard,
  );
  return { outcome, record };
}

/** The order a keyed booking made already (its expiry started again: idempotent), if any. */
async function replayOf(
  deps: OrdersDeps,
  input: PreorderInput,
  fingerprint: string,
  now: Date,
): Promise<Order | undefined> {
  if (input.idempotencyKey === undefined) return undefined;
  const replay = await deps.repo.getReplay(input.callerId, input.idempotencyKey);
  if (replay === undefined) return undefined;
  requireSameRequest(replay, fingerprint);
  const existing = await deps.repo.get(replay.orderId);
  if (existing === undefined) throw orderNotFound();
  await deps.startBookingExpiry(existing.id, existing.booking_expires_at);
  return toOrder(existing, input.callerId, deps.imagesBaseUrl, now);
}

export interface PreorderInput {
  callerId: string;
  offeringId: string;
  quantity: number;
  postaladdress: PostalAddress | null;
  idempotencyKey: string | undefined;
}

function fingerprintOf(input: PreorderInput): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        offering: input.offeringId,
        quantity: input.quantity,
        address: input.postaladdress,
      }),
    )
    .digest('hex');
}

export async function preorder(deps: OrdersDeps, input: PreorderInput, now: Date): Promise<Order> {
  const fingerprint = fingerprintOf(input);
  const replayed = await replayOf(deps, input, fingerprint, now);
  if (replayed !== undefined) return replayed;
  const [buyer, offering] = await Promise.all([
    deps.partyOf(input.callerId),
    deps.offerings.get(input.offeringId),
  ]);
  if (buyer === undefined) {
    throw new DomainError('users.errors.not_found', { message: 'This user could not be found.' });
  }
  if (offering === undefined || !visibleTo(offering, input.callerId)) {
    throw new DomainError('market.offering.errors.not_found', {
      message: 'This offering could not be found.',
    });
  }
  if (offering.seller_id === input.callerId) {
    throw new DomainError('market.buy.errors.own_offering', {
      message: 'You cannot buy your own offering.',
    });
  }
  // Spec 000 §5: the creator cannot buy back copies they sold.
  if (offering.item.issuer_id === input.callerId) {
    throw new DomainError('market.buy.errors.creator', {
      message: 'You cannot buy copies of an item you created and sold.',
    });
  }
  const at = now.getTime();
  // An auction sells at its buy-now price until its first bid (eBay's rule; docs/auctions.md).
  const buyNow = offering.type === 'auction' && offering.buy_price !== null;
  if (
    offering.status !== 'validated' ||
    (offering.type !== 'fixed' && !buyNow) ||
    at < Date.parse(offering.start_at) ||
    at >= Date.parse(offering.end_at)
  ) {
    throw notOnSale();
  }
  if (input.quantity > offering.copies_left) {
    throw new DomainError('market.buy.errors.quantity', {
      message: `This offering has ${offering.copies_left} copies left.`,
      fields: { 'order.quantity': 'market.buy.errors.quantity' },
    });
  }
  const item = await deps.items.getItem(offering.item_id);
  if (item === undefined) throw notOnSale();
  const { delivery } = deliveryOf(item);
  if (delivery === 'delivery') {
    if (input.postaladdress === null) {
      throw new DomainError('market.buy.errors.address_required', {
        message: 'A delivery address is required for this item.',
        fields: { 'order.postaladdress': 'market.buy.errors.address_required' },
      });
    }
    const countries = item.shipping?.mode === 'delivery' ? item.shipping.countries : [];
    if (!countries.includes(input.postaladdress.country)) {
      throw new DomainError('market.buy.errors.country', {
        message: `This item is not delivered to ${input.postaladdress.country}.`,
        fields: { 'order.postaladdress.country': 'market.buy.errors.country' },
      });
    }
  }
  const orderId = newOrderId(now);
  const expiresAt = new Date(at + TIMINGS.productBookingMs).toISOString();
  const base = newOrderRecord({
    orderId,
    offering,
    item,
    buyer,
    quantity: input.quantity,
    unitPrice: buyNow ? (offering.buy_price ?? offering.price) : offering.price,
    // A deposit auction's buy now takes its deposit too (below the minimum bid, so below the
    // buy-now price); the balance follows when the seller is ready.
    unitDeposit: offering.payment_mode === 'deposit' ? offering.deposit : null,
    subScope: 'purchase',
    assignround: null,
    buyNow,
    expiresAt,
    postaladdress: input.postaladdress,
    idempotencyKey: input.idempotencyKey ?? null,
    fingerprint,
    now,
  });
  for (let attempt = 0; attempt < BOOKING_ATTEMPTS; attempt += 1) {
    if (attempt > 0) {
      // The same key may have booked meanwhile (a retry racing its first attempt).
      const again = await replayOf(deps, input, fingerprint, now);
      if (again !== undefined) return again;
    }
    const tried = await bookFreeCopies(
      deps,
      {
        base,
        offeringId: offering.id,
        itemId: offering.item_id,
        until: expiresAt,
        idempotency:
          input.idempotencyKey === undefined
            ? null
            : { key: input.idempotencyKey, fingerprint, ttl: Math.floor(at / 1000) },
        guard: buyNow ? deps.auctions.buyNowPiece(offering.id, input.quantity) : undefined,
      },
      now,
    );
    if (tried.outcome === 'short') break;
    const { outcome, record } = tried;
    if (outcome === 'guard') {
      throw new DomainError('market.buy.errors.auction_bids', {
        message: 'Buy now ended with the first bid: bid on this auction instead.',
      });
    }
    if (outcome === 'replay') return preorder(deps, input, now);
    if (outcome === 'booked') {
      await deps.startBookingExpiry(orderId, expiresAt);
      return toOrder(record, input.callerId, deps.imagesBaseUrl, now);
    }
  }
  const again = await replayOf(deps, input, fingerprint, now);
  if (again !== undefined) return again;
  throw new DomainError('market.buy.errors.booked', {
    message: 'This product is booked, try again in five minutes.',
  });
}

/** The booking-expiry workflow's task: the booking ran out (a paid order is left alone). */
export async function expireBooking(
  deps: OrdersDeps,
  orderId: string,
  now: Date,
): Promise<{ orderId: string; status: string }> {
  const { record, applied } = await applyOrderEvent(
    deps,
    orderId,
    { type: 'booking_expired' },
    now,
    { strict: false },
  );
  // An auction's buy-now booking that ran out gives its copies back to the lot's bidding.
  if (applied && record.status === 'order_expired' && record.buy_now === true) {
    await deps.auctions.returnBuyNow(record.offering_id, record.quantity);
  }
  if (isBooked(record)) {
    // Woken a moment early (clocks differ): the workflow's retry comes back after the expiry.
    throw new Error(`The booking of ${orderId} runs until ${record.booking_expires_at}`);
  }
  return { orderId, status: record.status };
}

/** The payout-release workflow's task: 14 days after shipping, the payouts go out. */
export async function releaseDue(
  deps: OrdersDeps,
  orderId: string,
  now: Date,
): Promise<{ orderId: string; status: string }> {
  const { record } = await applyOrderEvent(deps, orderId, { type: 'release_due' }, now, {
    strict: false,
  });
  return { orderId, status: record.status };
}
