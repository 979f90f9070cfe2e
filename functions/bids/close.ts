import { bidderCount, standingOf } from '../../shared/auction';
import { topicOf } from '../../shared/realtime/messages';
import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import { closeStep, type CloseEffect, type OfferState } from './close.machine';
import { mergedBook, statusOf, type LotRecord } from './lot';
import { lotOfOffering } from './place';
import type { BidsDeps } from './ports';

/**
 * The auction close (issue 13 §4): the auction-close workflow's task (`auctionStep`) and the
 * sweeper (`auctionSweep`, every minute). Each run loads the lot, asks the pure close machine
 * (close.machine.ts) what is due, writes the lot conditioned on its version, then performs the
 * effects, each idempotent (orders keyed by offering, bidder and round; notifications by event
 * key; listing events applied leniently), so the workflow, a retried task and the sweeper racing
 * or a restart mid-close give the same result once.
 */

export interface CloseTaskOutput {
  offeringId: string;
  /** `wait` until `at`, `release` (the unsold copies go back to the seller), or `done`. */
  next: 'wait' | 'release' | 'done';
  at: string | null;
}

const MAX_ATTEMPTS = 20;

/** The lot, opened from its offering if the publication's `auction_open` never wrote it. */
async function lotFor(deps: BidsDeps, offeringId: string): Promise<LotRecord | undefined> {
  const lot = await deps.repo.getLot(offeringId);
  if (lot !== undefined) return lot;
  const offering = await deps.offerings.get(offeringId);
  if (offering?.type !== 'auction' || offering.status !== 'validated') return undefined;
  const opened = { ...(await lotOfOffering(deps, offering)), version: 1 };
  await deps.repo.saveLot(opened, 0);
  return deps.repo.getLot(offeringId);
}

export async function runCloseStep(
  deps: BidsDeps,
  offeringId: string,
  now: Date,
): Promise<CloseTaskOutput> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const found = await lotFor(deps, offeringId);
    // No lot: a delisted auction (its lot closed without bids), or not an auction on the market.
    if (found === undefined) return { offeringId, next: 'done', at: null };
    // The sweeper's list holds the lot at its end: a marker missing or left at an earlier end is
    // set right at each look (no write when it is).
    if (attempt === 0 && found.phase !== 'closed') {
      await deps.repo.markLive(offeringId, found.auction.end_at);
    }
    const lot = await wholeAtTheEnd(deps, found, now);
    const orderIds = lot.offers
      .filter((offer) => offer.outcome === 'pending' && offer.order_id !== null)
      .map((offer) => offer.order_id as string);
    const orders: Record<string, OfferState> =
      orderIds.length === 0 ? {} : await deps.orders.states(orderIds);
    const step = closeStep(lot, orders, now);
    let current = lot;
    if (Object.keys(step.changes).length > 0 || step.at !== lot.next_at) {
      const next: LotRecord = {
        ...lot,
        ...step.changes,
        next_at: step.at,
        version: lot.version + 1,
      };
      if (!(await deps.repo.saveLot(next, lot.version))) continue;
      current = next;
    }
    await performCloseEffects(deps, current, step.effects, now);
    const releasing = step.effects.some((effect) => effect.kind === 'end_offering');
    return { offeringId, next: releasing ? 'release' : step.next, at: step.at };
  }
  throw new DomainError('unavailable', { message: `The lot of ${offeringId} is busy.` });
}

/**
 * At its end an open contending lot takes back every bid from the bidders' entries (read after
 * the lot: a bid since would have moved the lot on and failed the close's write), so the close
 * offers copies down the whole ranking and the page lists every bidder's result.
 */
async function wholeAtTheEnd(deps: BidsDeps, lot: LotRecord, now: Date): Promise<LotRecord> {
  if (!lot.contending || lot.phase !== 'open') return lot;
  if (now.getTime() < Date.parse(lot.auction.end_at)) return lot;
  const entries = await deps.repo.biddersOf(lot.offering_id);
  const book = mergedBook(lot.auction.book, entries);
  return { ...lot, auction: { ...lot.auction, book }, contending: false };
}

/**
 * Sets an offer's order id on the lot (version-checked), unless another run set it first; a winner
 * paid at once (the card charged at the close) shows paid at once. A lapse is left to the close
 * step, which offers the copies to the next bids when it sees it.
 */
async function recordOrder(
  deps: BidsDeps,
  offeringId: string,
  index: number,
  orderId: string,
  state: OfferState,
): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const lot = await deps.repo.getLot(offeringId);
    const offer = lot?.offers[index];
    if (lot === undefined || offer === undefined || offer.order_id !== null) return;
    const offers = lot.offers.map((entry, at) =>
      at === index
        ? { ...entry, order_id: orderId, ...(state === 'paid' ? { outcome: 'paid' as const } : {}) }
        : entry,
    );
    if (await deps.repo.saveLot({ ...lot, offers, version: lot.version + 1 }, lot.version)) return;
  }
  throw new DomainError('unavailable', { message: `The lot of ${offeringId} is busy.` });
}

function payloadOf(lot: LotRecord) {
  return {
    itemName: lot.item_title,
    itemmarket: lot.item_id,
    offeringId: lot.offering_id,
    tokenImage: lot.item_image,
  };
}

async function performCloseEffects(
  deps: BidsDeps,
  lot: LotRecord,
  effects: readonly CloseEffect[],
  now: Date,
): Promise<void> {
  const topic = topicOf('offering', lot.offering_id);
  for (const effect of effects) {
    switch (effect.kind) {
      case 'remind': {
        const favoriters = await deps.offerings.favoriters(lot.offering_id);
        // Every bidder with a standing bid (a contending lot's book holds the leading ones).
        const entries = await deps.repo.biddersOf(lot.offering_id);
        const bidders = [
          ...lot.auction.book.map((entry) => entry.bidder_id),
          ...entries.flatMap((entry) => (entry.standing === null ? [] : [entry.bidder_id])),
        ];
        const to = new Set([...bidders, ...favoriters]);
        to.delete(lot.seller_id);
        for (const userId of to) {
          await deps.notify({
            to: userId,
            activity: 'market_auctionending',
            eventKey: `ending:${lot.offering_id}:${effect.key}:${userId}`,
            payload: { ...payloadOf(lot), time: Date.parse(lot.auction.end_at) },
          });
        }
        break;
      }
      case 'close_offering':
        await deps.offerings.apply(lot.offering_id, { type: 'close' }, now);
        await deps.publishTopic(topic, {
          type: 'auction.phase',
          offeringId: lot.offering_id,
          phase: 'closing',
        });
        break;
      case 'make_order': {
        const offer = lot.offers[effect.index];
        if (offer === undefined || offer.order_id !== null) break;
        const bidder = await deps.repo.getBidder(lot.offering_id, offer.bidder_id);
        const made = await deps.orders.makeOffer(
          {
            offeringId: lot.offering_id,
            buyerId: offer.bidder_id,
            quantity: offer.copies,
            unitPrice: offer.price,
            deadline: offer.deadline,
            round: offer.round,
            paymentMethod: bidder?.card?.id ?? null,
            postaladdress: bidder?.address ?? null,
          },
          now,
        );
        await recordOrder(deps, lot.offering_id, effect.index, made.orderId, made.state);
        const won = offer.round === 0;
        await deps.notify({
          to: offer.bidder_id,
          activity: won ? 'market_auction_win' : 'market_auction_substitute',
          eventKey: `${won ? 'won' : 'substitute'}:${lot.offering_id}:${offer.round}:${offer.bidder_id}`,
          payload: {
            ...payloadOf(lot),
            orderId: made.orderId,
            amount: { amount: offer.price * offer.copies, currency: lot.currency },
            time: Date.parse(offer.deadline),
          },
        });
        await deps.publish(offer.bidder_id, {
          type: 'auction.result',
          offeringId: lot.offering_id,
          result: won ? 'won' : 'substitute',
          orderId: made.orderId,
        });
        break;
      }
      case 'notify_notwon':
        for (const bidderId of effect.bidder_ids) {
          await deps.notify({
            to: bidderId,
            activity: 'market_auction_notwin',
            eventKey: `notwon:${lot.offering_id}:${bidderId}`,
            payload: payloadOf(lot),
          });
          await deps.publish(bidderId, {
            type: 'auction.result',
            offeringId: lot.offering_id,
            result: 'notwon',
          });
        }
        break;
      case 'end_offering':
        await deps.offerings.apply(lot.offering_id, { type: 'end' }, now);
        await deps.publishTopic(topic, {
          type: 'auction.phase',
          offeringId: lot.offering_id,
          phase: 'closed',
        });
        break;
      case 'final_statuses': {
        // The closed lot holds the whole book: each entry takes its bid from there (a rebid that
        // wrote the lot alone may not have reached the entry yet; none will after this).
        const book = new Map(lot.auction.book.map((entry) => [entry.bidder_id, entry]));
        await deps.repo.putBidders(
          (await deps.repo.biddersOf(lot.offering_id)).map((entry) => ({
            ...entry,
            standing: book.get(entry.bidder_id) ?? entry.standing,
            group: 'closed' as const,
            status: statusOf(lot, entry.bidder_id, entry),
            version: entry.version + 1,
            lot_version: lot.version,
          })),
        );
        break;
      }
    }
  }
}

/**
 * Brings an offering's copy of its lot's counters (bids, current price, end: what the market's
 * cards show) up to date, when bids came faster than the refresh interval. The lot's version at
 * which they are current (0: no lot), or undefined when bids kept it busy.
 */
export async function refreshCounters(
  deps: BidsDeps,
  offeringId: string,
  now: Date,
): Promise<number | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const lot = await deps.repo.getLot(offeringId);
    if (lot === undefined) return 0;
    if (!lot.stale) return lot.version;
    await deps.offerings.apply(
      offeringId,
      {
        type: 'bids',
        index: lot.log - 1,
        bids: bidderCount(lot.auction),
        highest_bid: standingOf(lot.auction).highest,
        end_at: lot.auction.end_at,
      },
      now,
    );
    const synced: LotRecord = {
      ...lot,
      stale: false,
      synced_at: now.toISOString(),
      synced_bids: bidderCount(lot.auction),
      version: lot.version + 1,
    };
    if (await deps.repo.saveLot(synced, lot.version)) return synced.version;
  }
  return undefined;
}

/** Lots are picked up by the sweeper this long after their end or a missed look. */
export const SWEEP_GRACE_MS = 2 * 60_000;

/**
 * The sweeper (an EventBridge schedule every minute; the twin's scheduler): lots past their end
 * whose close has not started, or whose close missed its next look (a failed or lost execution),
 * get a new auction-close execution that carries on from where the lot stands. Lagging counters
 * are brought up to date, and the lot leaves that list only if no bid came since.
 *
 * Its two lists are the lots' markers (bids.keys.ts), written only when the answer changes: a live
 * marker keeps the end its lot opened with, so a lot listed as due is read for its real end, and
 * an extended one has its marker moved on instead.
 */
export async function sweepAuctions(deps: BidsDeps, now: Date): Promise<{ resumed: string[] }> {
  const before = new Date(now.getTime() - SWEEP_GRACE_MS).toISOString();
  const due = await deps.repo.dueLots(before, 100);
  const resumed: string[] = [];
  for (const offeringId of await deps.repo.staleLots(100)) {
    try {
      const current = await refreshCounters(deps, offeringId, now);
      if (current !== undefined) await deps.repo.clearStale(offeringId, current);
    } catch (error) {
      logger.error("the sweeper could not refresh an auction's counters", {
        offeringId,
        error: error as Error,
      });
    }
  }
  for (const offeringId of due) {
    try {
      const lot = await deps.repo.getLot(offeringId);
      if (lot === undefined || lot.phase === 'closed') {
        // Closed without the close's own write (a delisting), or a marker left behind.
        await deps.repo.dropLive(offeringId);
        continue;
      }
      if (Date.parse(lot.auction.end_at) >= Date.parse(before)) {
        // Extended since it was listed: not due yet.
        await deps.repo.markLive(offeringId, lot.auction.end_at);
        continue;
      }
      const lookedFor = lot.next_at === null ? 0 : Date.parse(lot.next_at);
      const stalled =
        lot.phase === 'open' || lot.next_at === null || now.getTime() - lookedFor > SWEEP_GRACE_MS;
      if (!stalled) continue;
      await deps.startClose(offeringId, 'resume', now);
      resumed.push(offeringId);
    } catch (error) {
      logger.error('the sweeper could not resume an auction close', {
        offeringId,
        error: error as Error,
      });
    }
  }
  return { resumed };
}
