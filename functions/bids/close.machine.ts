import { AUCTION_LIMITS, bidExpiryOf, substitutesFor, winnersOf } from '../../shared/auction';
import type { LotOffer, LotRecord } from './lot';

/**
 * The auction-close workflow's state machine (issue 13 §4; spec 000 §4 auction display, §9
 * reminders and bid expiry), pure: `closeStep(lot, orders, now)` answers the lot's changes, the
 * effects to perform after they are written (conditioned on the lot's version), and when to look
 * again. Every task of infra/workflows/auction-close.asl.json and every sweeper run is one call of
 * it, so a replay or a race finds the work done and repeats only idempotent effects.
 *
 *   open ─(24 h, 6 h, 10 min before the end)─► remind ─► open
 *     └─(the end, re-read after every soft-close extension)─► closing: winners offered
 *   closing ─ each offer: paid ─► kept │ lapsed (unpaid by its deadline) ─► its copies offered to
 *            the next bids (substitutes, at their own maximum, the same window again)
 *     └─ no offer left pending ─► closed: the unsold copies back to the seller
 */

export const REMINDERS = [
  { key: '24h', beforeMs: 24 * 3_600_000 },
  { key: '6h', beforeMs: 6 * 3_600_000 },
  { key: '10m', beforeMs: 10 * 60_000 },
] as const;
export type ReminderKey = (typeof REMINDERS)[number]['key'];

/** Long waits are chunked: the workflow looks again at least daily (the end may have moved). */
export const MAX_WAIT_MS = 24 * 3_600_000;
/** While offers are pending, how often their orders are read again (a payment ends them early). */
export const CLOSING_POLL_MS = 5 * 60_000;
/** After a deadline, how long to wait for the order's own expiry before looking again. */
export const EXPIRY_GRACE_MS = 60_000;

/** Where an offer's order stands (orders' `auctionOfferStates`). */
export type OfferState = 'pending' | 'paid' | 'lapsed';

export type CloseEffect =
  | { kind: 'remind'; key: ReminderKey }
  /** The offering leaves the market: the listing machine's `close`; watchers see `closing`. */
  | { kind: 'close_offering' }
  /** Make (or find) the order of offer `index`; a winner's card is charged, a substitute told. */
  | { kind: 'make_order'; index: number }
  /** Bidders left without an offer at the end are told. */
  | { kind: 'notify_notwon'; bidder_ids: string[] }
  /** The close is over: the offering's `end` (unsold copies back), watchers see `closed`. */
  | { kind: 'end_offering' }
  /** Every bidder's entry moves to My Bids' closed group with their final status. */
  | { kind: 'final_statuses' };

export interface CloseStep {
  changes: Partial<Pick<LotRecord, 'phase' | 'offers' | 'reminders' | 'closed_at'>>;
  effects: CloseEffect[];
  /** `wait` until `at`, or `done`. */
  next: 'wait' | 'done';
  at: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function waitUntil(target: number, now: number): string {
  return iso(Math.max(now, Math.min(target, now + MAX_WAIT_MS)));
}

function openStep(lot: LotRecord, now: number): CloseStep {
  const end = Date.parse(lot.auction.end_at);
  if (now < end) {
    const unsent = REMINDERS.filter((reminder) => !lot.reminders.includes(reminder.key));
    const due = unsent.filter((reminder) => now >= end - reminder.beforeMs);
    const later = unsent.filter((reminder) => now < end - reminder.beforeMs);
    const effects: CloseEffect[] = [];
    // Only the nearest due reminder is sent (a lot published 5 hours before its end gets 6 h's).
    const nearest = due.at(-1);
    if (nearest !== undefined) effects.push({ kind: 'remind', key: nearest.key });
    const targets = [...later.map((reminder) => end - reminder.beforeMs), end];
    return {
      changes: due.length === 0 ? {} : { reminders: [...lot.reminders, ...due.map((r) => r.key)] },
      effects,
      next: 'wait',
      at: waitUntil(Math.min(...targets), now),
    };
  }
  const deadline = bidExpiryOf(lot.auction.end_at);
  const offers: LotOffer[] = winnersOf(lot.auction).map((winner) => ({
    ...winner,
    order_id: null,
    deadline,
    outcome: 'pending',
  }));
  const offered = new Set(offers.map((offer) => offer.bidder_id));
  const losers = lot.auction.book
    .map((entry) => entry.bidder_id)
    .filter((bidderId) => !offered.has(bidderId));
  const effects: CloseEffect[] = [
    { kind: 'close_offering' },
    ...offers.map((_, index) => ({ kind: 'make_order' as const, index })),
  ];
  if (losers.length > 0) effects.push({ kind: 'notify_notwon', bidder_ids: losers });
  return { changes: { phase: 'closing', offers }, effects, next: 'wait', at: iso(now) };
}

function closingStep(
  lot: LotRecord,
  orders: Readonly<Record<string, OfferState>>,
  now: number,
): CloseStep {
  const effects: CloseEffect[] = [];
  let offers = lot.offers.map((offer): LotOffer => {
    if (offer.outcome !== 'pending' || offer.order_id === null) return offer;
    const state = orders[offer.order_id];
    return state === undefined || state === 'pending' ? offer : { ...offer, outcome: state };
  });
  offers.forEach((offer, index) => {
    if (offer.outcome === 'pending' && offer.order_id === null) {
      effects.push({ kind: 'make_order', index });
    }
  });
  const newlyLapsed = offers.filter(
    (offer, index) => offer.outcome === 'lapsed' && lot.offers[index]?.outcome !== 'lapsed',
  );
  const freed = newlyLapsed.reduce((sum, offer) => sum + offer.copies, 0);
  if (freed > 0) {
    const lapsed = new Set(
      offers.filter((offer) => offer.outcome === 'lapsed').map((offer) => offer.bidder_id),
    );
    const round = Math.max(...offers.map((offer) => offer.round)) + 1;
    const deadline = iso(now + AUCTION_LIMITS.bidExpiryMs);
    const substitutes = substitutesFor(lot.auction, offers, lapsed, freed, round).map(
      (offer): LotOffer => ({ ...offer, order_id: null, deadline, outcome: 'pending' }),
    );
    const start = offers.length;
    offers = [...offers, ...substitutes];
    substitutes.forEach((_, index) => effects.push({ kind: 'make_order', index: start + index }));
  }
  const pending = offers.filter((offer) => offer.outcome === 'pending');
  const changed =
    offers.some((offer, index) => offer !== lot.offers[index]) ||
    offers.length !== lot.offers.length;
  if (pending.length === 0) {
    return {
      changes: { phase: 'closed', offers, closed_at: iso(now) },
      effects: [...effects, { kind: 'end_offering' }, { kind: 'final_statuses' }],
      next: 'done',
      at: null,
    };
  }
  // Look again at the earliest deadline (plus a grace for the order's own expiry) or sooner.
  const nextDeadline = Math.min(...pending.map((offer) => Date.parse(offer.deadline)));
  const target =
    nextDeadline <= now
      ? now + EXPIRY_GRACE_MS
      : Math.min(nextDeadline + EXPIRY_GRACE_MS, now + CLOSING_POLL_MS);
  return {
    changes: changed ? { offers } : {},
    effects,
    next: 'wait',
    at: iso(effects.length > 0 ? now : target),
  };
}

export function closeStep(
  lot: LotRecord,
  orders: Readonly<Record<string, OfferState>>,
  now: Date,
): CloseStep {
  const at = now.getTime();
  switch (lot.phase) {
    case 'open':
      return openStep(lot, at);
    case 'closing':
      return closingStep(lot, orders, at);
    case 'closed':
      return { changes: {}, effects: [], next: 'done', at: null };
  }
}
