import {
  bidderCount,
  bidExpiryOf,
  cancelBid as cancelRule,
  contending,
  placeBid as placeRule,
  standingOf,
  type AuctionState,
  type BidOutcome,
  type BookEntry,
} from '../../shared/auction';
import type { AuctionView } from '../../shared/schemas/bids';
import type { PostalAddress } from '../../shared/schemas/orders';
import type { SavedCard } from '../../shared/schemas/payments';
import { isErrorCode } from '../../shared/errors/registry';
import type { Budget } from '../core/clock';
import { DomainError } from '../core/errors';
import { newId } from '../core/ids';
import { logger } from '../core/logger';
import { imageUrls } from '../items/index';
import type { OfferingRecord } from '../offerings/index';
import type {
  BidLogLine,
  BidderRecord,
  BidsRepo,
  CommitResult,
  QueuedChange,
  QueuedOutcome,
} from './bids.repo';
import {
  mergedBook,
  newLot,
  queuePending,
  syncDue,
  viewOf,
  mayBid,
  type CardRef,
  type LotRecord,
} from './lot';
import { followNoteOf } from './follow-up';
import type { BidsDeps } from './ports';

/**
 * Bidding (issue 13 §1, §3): `POST users/{id}/bid/create` and `bid/cancel/{offeringid}`. A bid
 * reads the lot, runs the rules (shared/auction.ts) and writes the new lot conditioned on the
 * version it read, with the entries a later decision reads (`entryWrites`): a rebid that keeps its
 * bidder in the lot's book writes the lot alone. A lost race re-runs the rules on the lot as it
 * stands, once; a second loss (or a lot whose queue is not empty) queues the change under the lot,
 * and whichever writer takes the lot next decides the queue, in order, in its own write (a hot
 * lot: `queueChange`, docs/auctions.md). So bids on one lot are applied one at a time in a total
 * order, every bid is decided by the rules within its caller's budget however many race for the
 * lot, none is lost, none is accepted below the threshold it meets, and the lot always equals its
 * log replayed. The log lines, the entries left to them and what others see (the live channel,
 * notifications, the offering's counters) follow from the lot's note on the table's stream.
 */

/**
 * Lost races a change takes on the lot at its version before queueing under it (after each, it is
 * decided again on the lot handed back: a refusal answers at once, without queueing).
 */
const OPTIMISTIC_ATTEMPTS = 2;
/**
 * How long before its invocation's end a change stops trying and waiting: the time to take its
 * change out of the queue (or read how it was decided) and answer, even on a loaded machine.
 */
export const ANSWER_MARGIN_MS = 2_000;
/**
 * Queued changes one write decides at most (fewer when their entries and outcomes would pass a
 * transaction's 100 items).
 */
export const QUEUE_BATCH = 80;
const TRANSACT_MAX_ITEMS = 100;

/** A change's time: its `now`, and the invocation's budget (the clock below counts on it). */
interface Timing {
  now: Date;
  budget: Budget;
  /** The time now (epoch ms): `now` plus the budget spent since (no global clock). */
  clock: () => number;
}

function timingOf(now: Date, budget: Budget): Timing {
  const left = budget.remainingMs();
  return { now, budget, clock: () => now.getTime() + (left - budget.remainingMs()) };
}

export interface BidInput {
  callerId: string;
  offeringId: string;
  bidprice: number;
  maxbid: number | null;
  currency: string;
  quantity: number;
  payment_method: string | null;
  postaladdress: PostalAddress | null;
}

function notFound(): DomainError {
  return new DomainError('market.offering.errors.not_found', {
    message: 'This offering could not be found.',
  });
}

/**
 * Full jitter, growing with the attempt, capped (many bidders racing on one hot lot), never past
 * the answer's margin.
 */
function backoff(timing: Timing, attempt: number, floorMs = 0): Promise<void> {
  const cap = Math.min(250, 4 * 2 ** Math.min(attempt, 6));
  const wait = Math.max(floorMs, Math.random() * cap);
  return timing.budget.sleep(
    Math.max(0, Math.min(wait, timing.budget.remainingMs() - ANSWER_MARGIN_MS)),
  );
}

/** Whether the budget still allows another try (else: answer now). */
function inTime(timing: Timing): boolean {
  return timing.budget.remainingMs() > ANSWER_MARGIN_MS;
}

/** The facts of an offering a lot is opened from (at publication, or lazily by a first bid). */
export async function lotOfOffering(
  deps: Pick<BidsDeps, 'imagesBaseUrl' | 'softCloseMs' | 'shippingOf'>,
  offering: OfferingRecord,
): Promise<LotRecord> {
  const { imagesBaseUrl, softCloseMs } = deps;
  const shipping = await deps.shippingOf(offering.item_id);
  return newLot(
    {
      id: offering.id,
      item_id: offering.item_id,
      seller_id: offering.seller_id,
      issuer_id: offering.item.issuer_id,
      currency: offering.currency,
      start_at: offering.start_at,
      end_at: offering.end_at,
      copies: offering.copies_left,
      price: offering.price,
      reserve_price: offering.reserve_price,
      multi_copy: offering.multi_copy,
      access: offering.access,
      invited_ids: offering.invited.map((invitee) => invitee.id),
      item_title: offering.item.title,
      item_image: imageUrls(offering.item.image, imagesBaseUrl).thumb,
      delivery: shipping.delivery,
      countries: shipping.countries,
    },
    softCloseMs,
  );
}

/**
 * The lot of an auction, or one opened from the offering when none was written yet (version 0:
 * the first write creates it). Refuses what is not an auction on the market.
 */
export async function loadLot(
  deps: BidsDeps,
  offeringId: string,
): Promise<{ lot: LotRecord; expected: number }> {
  const lot = await deps.repo.getLot(offeringId);
  if (lot !== undefined) return { lot, expected: lot.version };
  const offering = await deps.offerings.get(offeringId);
  if (offering === undefined) throw notFound();
  if (offering.type !== 'auction') {
    throw new DomainError('market.bid.errors.not_auction', {
      message: 'This offering is not an auction.',
    });
  }
  if (offering.status !== 'validated' || offering.closing) {
    throw new DomainError('market.bid.errors.ended', { message: 'This auction has ended.' });
  }
  return { lot: await lotOfOffering(deps, offering), expected: 0 };
}

/** The end of a card's expiry month (UTC): it cannot be charged after. */
function cardEnd(card: SavedCard): number {
  return Date.UTC(card.exp_year, card.exp_month, 1);
}

/**
 * The card backing the bid: the one named, else the bidder's card on this lot, else their default.
 * It must be able to pay until the bid expires (the end + 2880 minutes).
 */
async function cardFor(
  deps: BidsDeps,
  lot: LotRecord,
  callerId: string,
  stored: CardRef | null,
  requested: string | null,
  now: Date,
): Promise<CardRef> {
  if (stored !== null && (requested === null || requested === stored.id)) return stored;
  const cards = await deps.cardsOf(callerId, now);
  const usable = cards.filter((card) => !card.expired);
  const card =
    requested === null
      ? (usable.find((entry) => entry.default) ?? usable[0] ?? cards[0])
      : cards.find((entry) => entry.id === requested);
  if (card === undefined) {
    if (requested !== null) {
      throw new DomainError('payments.errors.card_not_found', {
        message: 'That card is not one of your saved cards.',
        fields: { payment_method: 'payments.errors.card_not_found' },
      });
    }
    throw new DomainError('market.bid.errors.no_card', {
      message: 'Add a card to bid: the winning bid is charged to it when the auction ends.',
    });
  }
  if (card.expired || cardEnd(card) < Date.parse(bidExpiryOf(lot.auction.end_at))) {
    throw new DomainError('market.bid.errors.payments', {
      message: 'Error creating payments for bids: the card expires before the bid.',
      fields: { payment_method: 'market.bid.errors.payments' },
    });
  }
  return { id: card.id, brand: card.brand, last4: card.last4 };
}

/** Spec 000 §5: a delivered item's auction order must have a postal address it is delivered to. */
function addressFor(
  lot: LotRecord,
  stored: PostalAddress | null,
  given: PostalAddress | null,
): PostalAddress | null {
  if (lot.delivery !== 'delivery') return null;
  const address = given ?? stored;
  if (address === null) {
    throw new DomainError('market.buy.errors.address_required', {
      message: 'A delivery address is required for this item.',
      fields: { postaladdress: 'market.buy.errors.address_required' },
    });
  }
  if (!lot.countries.includes(address.country)) {
    throw new DomainError('market.buy.errors.country', {
      message: `This item is not delivered to ${address.country}.`,
      fields: { 'postaladdress.country': 'market.buy.errors.country' },
    });
  }
  return address;
}

async function checkBidder(deps: BidsDeps, lot: LotRecord, callerId: string): Promise<void> {
  if (!(await mayBid(lot, callerId, deps.offerings.isInvited))) throw notFound();
  if (lot.seller_id === callerId) {
    throw new DomainError('market.bid.errors.own_offering', {
      message: 'You cannot bid on your own offering.',
    });
  }
  // Spec 000 §5: the creator cannot bid on copies they sold.
  if (lot.issuer_id === callerId) {
    throw new DomainError('market.bid.errors.creator', {
      message: 'You cannot bid on copies of an item you created and sold.',
    });
  }
  // Ended, or every copy bought at the buy-now price before any bid.
  if (lot.phase !== 'open' || lot.auction.copies === 0) {
    throw new DomainError('market.bid.errors.ended', { message: 'This auction has ended.' });
  }
}

/** A refused bid as its error; a bid beaten by someone else's is 'another user bid the same or higher'. */
function refusal(
  lot: LotRecord,
  callerId: string,
  amount: number,
  outcome: BidOutcome,
): DomainError {
  if (outcome.ok) throw new Error('not a refusal');
  const details = { minimBid: outcome.min_next };
  const field = (code: string) => ({ bidprice: code });
  if (outcome.code === 'market.bid.errors.too_low' && amount >= lot.auction.min_price) {
    const others = standingOf(lot.auction).leaders.some((w) => w.bidder_id !== callerId);
    if (others) {
      return new DomainError('market.bid.errors.beaten', {
        message: 'Another user bid the same or higher.',
        details,
        fields: field('market.bid.errors.beaten'),
      });
    }
  }
  const fields: Record<string, Record<string, string>> = {
    'market.bid.errors.quantity': { quantity: outcome.code },
    'market.bid.errors.one_copy': { quantity: outcome.code },
    'market.bid.errors.rebid_quantity': { quantity: outcome.code },
    'market.bid.errors.max_below_amount': { maxbid: outcome.code },
  };
  return new DomainError(outcome.code, {
    message: `The bid was refused (${outcome.code}).`,
    details,
    fields: fields[outcome.code] ?? field(outcome.code),
  });
}

/**
 * 503 'Error sending bid, please try again': the change could not be decided within its budget
 * (the table failing). `cause`: the last failure, logged with the answer.
 */
function busy(cause?: unknown): DomainError {
  if (cause !== undefined) logger.error('a bid could not be decided within its budget', { cause });
  return new DomainError('market.bid.errors.generic', {
    message: 'Error sending bid, please try again',
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The lots this container last wrote or saw, by offering (a warm Lambda keeps them between calls):
 * a bid starts from its container's copy instead of reading the lot again. The copy may be stale;
 * then the version-conditioned write fails and DynamoDB hands back the lot as it stands, so a bid
 * never costs more requests than reading first would. A refusal is only ever given on a lot just
 * read (a stale copy could refuse a bid that a retraction since made valid).
 */
const recentLots = new Map<string, LotRecord>();
const RECENT_LOTS_MAX = 256;

function remember(lot: LotRecord): void {
  recentLots.delete(lot.offering_id);
  recentLots.set(lot.offering_id, lot);
  if (recentLots.size > RECENT_LOTS_MAX) {
    const oldest = recentLots.keys().next().value;
    if (oldest !== undefined) recentLots.delete(oldest);
  }
}

/**
 * The bidders' entries this container last wrote or saw, by lot and bidder: a rebid starts from
 * them too. A stale one fails the entry's version-conditioned write, which hands it back.
 */
const recentBidders = new Map<string, BidderRecord>();
const RECENT_BIDDERS_MAX = 1024;
const bidderSlot = (offeringId: string, bidderId: string) => `${offeringId}\n${bidderId}`;

function rememberBidder(record: BidderRecord): void {
  const slot = bidderSlot(record.offering_id, record.bidder_id);
  recentBidders.delete(slot);
  recentBidders.set(slot, record);
  if (recentBidders.size > RECENT_BIDDERS_MAX) {
    const oldest = recentBidders.keys().next().value;
    if (oldest !== undefined) recentBidders.delete(oldest);
  }
}

/** Forgets the container's copies (tests that rewrite lots behind the use case's back). */
export function forgetRecentLots(): void {
  recentLots.clear();
  recentBidders.clear();
}

/** What a bid or a cancellation changes, decided on one reading of the lot. */
interface LotChange {
  outcome: Extract<BidOutcome, { ok: true }>;
  /** The new lot, before its log index, version and counters' sync are set. */
  next: LotRecord;
  line: Omit<BidLogLine, 'index'>;
  bidder: BidderRecord;
  newBidder: boolean;
}

/**
 * Decides a change on a lot and the caller's entry in it; throws a DomainError to refuse.
 * `usage.entry`: the decision rested on the caller's entry (a refusal on a stale one is not given).
 */
type Decide = (
  lot: LotRecord,
  mine: BidderRecord | undefined,
  usage: { entry: boolean },
) => Promise<LotChange>;

/** A change as it is queued: what the rules need that the lot does not hold, resolved. */
type Queueable = (change: LotChange) => Omit<QueuedChange, 'ticket' | 'until'>;

/**
 * Applies a change to a lot, one at a time with every other writer: decides on the lot and the
 * caller's entry in it (the container's copies, else read), writes the lot and the entries the
 * change must write conditioned on the versions decided on, and on a lost race decides again on
 * what now stands. A second lost race, or a lot whose queue is not empty, queues the change under
 * the lot (`queueChange`). The log line and what follows go on the lot as its note (the bidEvents
 * stream trigger carries them out); answers the lot as the caller sees it. Never past the budget:
 * when no try is left in it, answers 503 'Error sending bid'.
 */
async function changeLot(
  deps: BidsDeps,
  offeringId: string,
  callerId: string,
  timing: Timing,
  decide: Decide,
  queueable: Queueable,
): Promise<AuctionView> {
  const { now } = timing;
  const slot = bidderSlot(offeringId, callerId);
  let known: { lot: LotRecord; expected: number; fresh: boolean } | null = null;
  let mine: { record: BidderRecord | undefined; fresh: boolean } | null = null;
  let losses = 0;
  let failure: unknown;
  for (let attempt = 0; ; attempt += 1) {
    if (!inTime(timing)) throw busy(failure);
    try {
      if (known === null || mine === null) {
        const recent: LotRecord | undefined =
          known === null ? recentLots.get(offeringId) : undefined;
        const recentMine: BidderRecord | undefined =
          mine === null ? recentBidders.get(slot) : undefined;
        const needLot = known === null && recent === undefined;
        const needMine = mine === null && recentMine === undefined;
        const reads: Promise<
          [{ lot: LotRecord; expected: number } | undefined, BidderRecord | undefined]
        > = Promise.all([
          needLot ? loadLot(deps, offeringId) : undefined,
          needMine ? deps.repo.getBidder(offeringId, callerId) : undefined,
        ]);
        const [lotRead, mineRead] = await bounded(timing, reads);
        if (known === null) {
          if (lotRead !== undefined) known = { ...lotRead, fresh: true };
          else if (recent !== undefined)
            known = { lot: recent, expected: recent.version, fresh: false };
          else throw new Error('no lot');
        }
        mine ??=
          recentMine === undefined
            ? { record: mineRead, fresh: true }
            : { record: recentMine, fresh: false };
      }
      const { lot, expected, fresh }: { lot: LotRecord; expected: number; fresh: boolean } = known;
      let change: LotChange;
      // Whether the decision rested on the caller's entry (a refusal on a stale one is not given).
      const usage = { entry: false };
      try {
        change = await bounded(timing, decide(lot, mine.record, usage));
      } catch (error) {
        // A refusal is only given on what was just read: the lot, and the entry if it counted.
        const staleLot = !fresh;
        const staleEntry = !mine.fresh && usage.entry;
        if ((staleLot || staleEntry) && error instanceof DomainError) {
          if (staleLot) {
            known = null;
            recentLots.delete(offeringId);
          }
          if (staleEntry) {
            mine = null;
            recentBidders.delete(slot);
          }
          continue;
        }
        throw error;
      }
      // A hot lot: changes wait in its queue (this one goes behind them), or the race was lost
      // twice. Queued, it is decided by the rules in the queue's order, by whichever writer takes
      // the lot next.
      if (queuePending(lot) || losses >= OPTIMISTIC_ATTEMPTS) {
        return await queueChange(deps, offeringId, timing, queueable(change));
      }
      const at = now.toISOString();
      const next: LotRecord = { ...change.next, log: lot.log + 1, version: expected + 1 };
      const sync = syncDue(next, now, change.outcome.extended);
      Object.assign(
        next,
        sync
          ? { synced_at: at, synced_bids: bidderCount(next.auction), stale: false }
          : { stale: true },
      );
      const indexed = { ...change.line, index: lot.log };
      // What follows the line travels with it: the table's stream hands it to the bidEvents trigger.
      const line: BidLogLine = {
        ...indexed,
        follow: followNoteOf({
          outcome: change.outcome,
          sync,
          bidderId: callerId,
          newBidder: change.newBidder,
        }),
      };
      const writes = entryWrites(lot, next, callerId, mine.record, change);
      const bidder: BidderRecord = { ...change.bidder, lot_version: next.version };
      const result: CommitResult = await bounded(
        timing,
        deps.repo.commit(
          next,
          expected,
          {
            version: next.version,
            line,
            ...(writes.caller
              ? {}
              : {
                  entry: {
                    bidder_id: callerId,
                    standing: bidder.standing,
                    last_at: bidder.last_at,
                  },
                }),
          },
          writes.caller ? [bidder] : [],
          writes.evicted,
          // Counters current until now: the lot joins the sweeper's list of lagging ones (at most
          // once per sync interval: later bids find it stale already).
          next.stale && !lot.stale,
        ),
      );
      if (result.written) {
        remember(next);
        // An entry left to the stream keeps its version: the container knows its new standing.
        rememberBidder(writes.caller ? bidder : { ...bidder, version: mine.record?.version ?? 0 });
        return viewOf(next, bidder, now);
      }
      if (result.bidder !== undefined) {
        // The caller's entry moved on (their bid elsewhere); the lot was current.
        recentBidders.delete(slot);
        mine =
          result.bidder.current === undefined
            ? null
            : { record: result.bidder.current, fresh: true };
        if (mine?.record !== undefined) rememberBidder(mine.record);
      } else if (result.current === undefined) {
        losses += 1;
        recentLots.delete(offeringId);
        known = null;
      } else {
        losses += 1;
        remember(result.current);
        known = { lot: result.current, expected: result.current.version, fresh: true };
      }
    } catch (error) {
      if (error instanceof DomainError) throw error;
      // The table (or a read the decision needs) failed: tried again while the budget allows.
      failure = error;
      logger.warn('a bid could not reach the lot; trying again', { offeringId, error });
      known = null;
      mine = null;
      recentLots.delete(offeringId);
    }
    // Every loser backs off (jittered) before deciding again, even with the lot in hand: retrying
    // at once, all the losers of a hot lot would collide again in lockstep.
    await backoff(timing, attempt);
  }
}

/** The outcome of a queued change, and what its caller answers with when it was accepted. */
interface Decided {
  outcome: QueuedOutcome;
  /** The lot and the caller's entry as the write that accepted it left them, when at hand. */
  lot?: LotRecord;
  entry?: BidderRecord;
}

/**
 * A hot lot (docs/auctions.md): the change goes into the lot's queue (an item of its own under the
 * lot, so queueing never races) and its caller waits for its outcome. A change near the queue's
 * head (by its number in the queue against the lot's count of decided ones) has its caller take the
 * lot and decide the queue's first QUEUE_BATCH changes in one write (`decideBatch`), then go on
 * deciding the batches behind it for a while (HELP_MS) before it answers. The others read the lot
 * now and then (sparser the further back they are), read their own change alone once it is in the
 * next batch, and take over when the lot's count stops moving (the deciding caller is gone or
 * slow). So every change is decided by the rules, in the queue's order, within a few writes of the
 * lot however many race. At the end of its budget (less the margin to answer) the caller takes its
 * change out of the queue and answers 503; if a writer decided it first, it answers that outcome.
 */
async function queueChange(
  deps: BidsDeps,
  offeringId: string,
  timing: Timing,
  request: Omit<QueuedChange, 'ticket' | 'until'>,
): Promise<AuctionView> {
  const at = timing.clock();
  const change: QueuedChange = {
    ...request,
    ticket: newId(new Date(at)),
    until: at + timing.budget.remainingMs() - ANSWER_MARGIN_MS,
  };
  let failure: unknown;
  let tried = false;
  let queued = false;
  /** The change's number in the lot's queue (undefined: not known, look at the queue itself). */
  let number: number | undefined;
  /** The lot's count of decided changes as last read, and since when it has not moved. */
  let progress: { dequeued: number; since: number } | undefined;
  /** Where the change stood at the last reading of the lot (0: at the head), and when that was. */
  let ahead = 0;
  let raw = 0;
  let lotReadAt = Number.NEGATIVE_INFINITY;
  let lot: { lot: LotRecord; expected: number } | undefined;
  // The outcome's answer: the view, or the refusal to throw (not a failure to retry).
  const answer = (decided: Decided) =>
    answerQueued(deps, offeringId, change, timing, decided).catch((error: unknown) => {
      if (error instanceof DomainError) return error;
      throw error;
    });
  for (let round = 0; inTime(timing); round += 1) {
    let answered: AuctionView | DomainError | undefined;
    try {
      answered = await bounded(
        timing,
        (async (): Promise<AuctionView | DomainError | undefined> => {
          if (!queued) {
            // Idempotent: tried again after a failure, it finds its item (counted again at
            // worst: an extra look at an empty queue). Once tried, the item may be there: giving
            // up takes it out.
            tried = true;
            number = await deps.repo.enqueue(offeringId, change);
            queued = true;
          }
          const now = timing.clock();
          // In the next batch but not near the head, its own change is what it reads; the lot
          // only now and then.
          const lotDue = ahead <= HEAD_SLACK || ahead >= QUEUE_BATCH || now - lotReadAt >= 1_000;
          if (lotDue) {
            // The lot: its count of decided changes says how far the change is from the head.
            lot = await loadLot(deps, offeringId);
            lotReadAt = now;
            const dequeued = lot.lot.dequeued ?? 0;
            if (progress === undefined || progress.dequeued !== dequeued) {
              progress = { dequeued, since: now };
            }
            // How many changes wait ahead of it by the counts (below 0: counted ahead of changes
            // that queued before it, the numbers coming in the order changes counted themselves).
            raw = number === undefined ? 0 : number - 1 - dequeued;
            ahead = Math.max(0, raw);
          }
          if (ahead >= QUEUE_BATCH) return undefined;
          if (round > 0) {
            const outcome = await deps.repo.queuedOutcome(offeringId, change.ticket);
            if (outcome === undefined)
              throw busy(new Error('a queued bid left the queue undecided'));
            if (outcome !== null) return answer({ outcome });
          }
          // Near the head; or the lot's count has not moved for a while (the deciding caller is
          // gone or slow: the nearest takes over first, the next after longer, in turn).
          const stalled = progress !== undefined && now - progress.since >= STALL_MS * (1 + ahead);
          if ((ahead > HEAD_SLACK && !stalled) || lot === undefined || !lotDue) return undefined;
          if (!stalled && raw !== 0) {
            // The count says near the head: the queue's first ticket says whether it is (the
            // numbers come in the order changes counted themselves, the queue in ticket order).
            const [first] = await deps.repo.queuedTickets(offeringId, 1);
            if (first !== undefined && first.ticket !== change.ticket) return undefined;
          }
          const queue = await deps.repo.queuedChanges(offeringId, QUEUE_BATCH);
          if (!queue.changes.some((entry) => entry.ticket === change.ticket)) {
            // Decided meanwhile, or not yet in the first batch after all.
            const outcome = await deps.repo.queuedOutcome(offeringId, change.ticket);
            if (outcome === undefined)
              throw busy(new Error('a queued bid left the queue undecided'));
            if (outcome !== null) return answer({ outcome });
            if (!stalled) return undefined;
          }
          const batch = await decideBatch(deps, offeringId, timing, lot, queue);
          if (!batch.written) return undefined;
          const outcome = batch.decided.get(change.ticket);
          if (outcome === undefined) return undefined;
          await helpDrain(deps, offeringId, timing, batch);
          const entry = batch.entries.get(change.bidder_id);
          return answer({
            outcome,
            ...(batch.lot === undefined ? {} : { lot: batch.lot }),
            ...(entry === undefined ? {} : { entry }),
          });
        })(),
      );
    } catch (error) {
      if (error instanceof DomainError) {
        // No lot to decide on (gone, or not an auction): the change leaves the queue first.
        return giveUp(deps, offeringId, change, timing, error, tried);
      }
      failure = error;
      logger.warn('a queued bid could not reach the lot; trying again', { offeringId, error });
    }
    if (answered instanceof DomainError) throw answered;
    if (answered !== undefined) return answered;
    await queuePause(timing, round, ahead);
  }
  return giveUp(deps, offeringId, change, timing, busy(failure), tried);
}

/**
 * A waiting caller whose change is next by the counts takes the lot and decides the first batch;
 * one this near the head by the counts looks whether its change is the queue's first, and if so,
 * does too.
 */
const HEAD_SLACK = 3;
/**
 * How long the lot's count of decided changes may stay the same before the caller nearest the head
 * decides the first batch instead (the next one after twice as long, and so on).
 */
const STALL_MS = 4_000;
/** How long a caller whose change was decided goes on deciding the batches behind it. */
const HELP_MS = 10_000;
/** …and stops with this much of its budget left beyond the margin, to answer its own caller. */
const HELP_RESERVE_MS = 3_000;
/** A batch's write on a loaded twin, about: how long a caller further back waits per batch. */
const BATCH_MS = 800;

/**
 * A waiting caller's pause, jittered so the waiting never go in step: at the head a short backoff
 * (its write was lost: try again soon); in the next batch 300 to 450 ms; further back, about the
 * time the batches ahead of it take, at most 3 s (up to half as long again, at random).
 */
function queuePause(timing: Timing, round: number, ahead: number): Promise<void> {
  if (ahead <= HEAD_SLACK) return backoff(timing, round, 2);
  const base =
    ahead < QUEUE_BATCH ? 300 : Math.min(3_000, Math.floor(ahead / QUEUE_BATCH) * BATCH_MS);
  const wait = base * (1 + Math.random() / 2);
  return timing.budget.sleep(
    Math.max(0, Math.min(wait, timing.budget.remainingMs() - ANSWER_MARGIN_MS)),
  );
}

/** A step the table did not answer within the budget (less `reserve`, the time to answer). */
class OutOfTime extends Error {
  override readonly name = 'OutOfTime';
}

/**
 * Runs a step, or gives up on it once only `reserve` of the budget is left (the table not
 * answering in time): the caller answers in time rather than being stopped at its timeout. A
 * write given up on may still land, as any write whose answer is lost.
 */
async function bounded<T>(
  timing: Timing,
  step: Promise<T>,
  reserve = ANSWER_MARGIN_MS,
): Promise<T> {
  const left = timing.budget.remainingMs() - reserve;
  // A late failure of a step given up on is no one's to handle.
  step.catch(() => undefined);
  if (left <= 0) throw new OutOfTime('no time left for the step');
  const timer = timing.budget.timer(left);
  try {
    return await Promise.race([
      step,
      timer.done.then(() => {
        throw new OutOfTime('the step did not end within the budget');
      }),
    ]);
  } finally {
    timer.cancel();
  }
}

/** What a caller keeps to answer after giving up on a step: time for one small write and a read. */
const GIVE_UP_RESERVE_MS = 300;

/**
 * The caller whose batch was written decides the batches behind it for a while (one writer at the
 * lot decides a queue fastest), while its budget allows, then answers.
 */
async function helpDrain(
  deps: BidsDeps,
  offeringId: string,
  timing: Timing,
  first: Extract<Batch, { written: true }>,
): Promise<void> {
  const until = timing.clock() + HELP_MS;
  let last = first;
  try {
    while (
      !last.complete &&
      timing.clock() < until &&
      timing.budget.remainingMs() > ANSWER_MARGIN_MS + HELP_RESERVE_MS
    ) {
      // Past the changes it just decided (their items wait for their callers to take them out).
      const queue = await deps.repo.queuedChanges(offeringId, QUEUE_BATCH, last.through);
      if (queue.changes.length === 0) return;
      const known =
        last.lot === undefined ? undefined : { lot: last.lot, expected: last.lot.version };
      const batch = await decideBatch(deps, offeringId, timing, known, queue);
      // Another writer came first: it decides the rest.
      if (!batch.written) return;
      last = batch;
    }
  } catch (error) {
    // The caller's own outcome is decided: the others go on without this help.
    logger.warn('a queued bid could not help decide the queue', { offeringId, error });
  }
}

/**
 * The budget is spent (or the lot cannot be decided on): the change leaves the queue, so no writer
 * applies it after its caller was told it was not; if a writer decided it first, its outcome is
 * the answer.
 */
async function giveUp(
  deps: BidsDeps,
  offeringId: string,
  change: QueuedChange,
  timing: Timing,
  error: DomainError,
  /** Queueing was tried (its item may be there). */
  tried: boolean,
): Promise<AuctionView> {
  if (!tried) throw error;
  try {
    if (
      await bounded(timing, deps.repo.withdrawQueued(offeringId, change.ticket), GIVE_UP_RESERVE_MS)
    ) {
      throw error;
    }
    const outcome = await bounded(
      timing,
      deps.repo.queuedOutcome(offeringId, change.ticket),
      GIVE_UP_RESERVE_MS,
    );
    if (outcome === null || outcome === undefined) throw error;
    return await bounded(
      timing,
      answerQueued(deps, offeringId, change, timing, { outcome }),
      GIVE_UP_RESERVE_MS,
    );
  } catch (thrown) {
    if (thrown instanceof DomainError) throw thrown;
    logger.warn('a queued bid could not be taken out of the queue', { offeringId, error: thrown });
    throw error;
  }
}

/** Answers a queued change's outcome (and takes its item out of the queue). */
async function answerQueued(
  deps: BidsDeps,
  offeringId: string,
  change: QueuedChange,
  timing: Timing,
  decided: Decided,
): Promise<AuctionView> {
  const { outcome } = decided;
  const drop = deps.repo.dropQueued(offeringId, change.ticket).catch((error: unknown) => {
    // Its TTL takes it out.
    logger.warn('a decided queued bid was not taken out of the queue', { offeringId, error });
  });
  if (outcome.status === 'refused') {
    await drop;
    const { code, message, details, fields } = outcome.error;
    if (!isErrorCode(code)) throw busy(new Error(`unknown refusal ${code}`));
    throw new DomainError(code, {
      message,
      ...(details === undefined ? {} : { details }),
      ...(fields === undefined ? {} : { fields }),
    });
  }
  if (outcome.status === 'expired') {
    await drop;
    throw busy();
  }
  const [lot, entry] =
    decided.lot !== undefined && decided.entry !== undefined
      ? [decided.lot, decided.entry]
      : await Promise.all([
          deps.repo.getLot(offeringId),
          deps.repo.getBidder(offeringId, change.bidder_id),
        ]);
  await drop;
  if (lot === undefined) throw busy(new Error('an accepted bid without its lot'));
  return viewOf(lot, entry, timing.now);
}

/** A refusal as a queued change's outcome. */
function refusedOutcome(error: DomainError): QueuedOutcome {
  return {
    status: 'refused',
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.fields === undefined ? {} : { fields: error.fields }),
    },
  };
}

/** A batch of queued changes decided and written, or the write lost. */
type Batch =
  | {
      written: true;
      /** Each change decided, by ticket. */
      decided: Map<string, QueuedOutcome>;
      /** The lot as written (undefined: the batch accepted none and left it as it was). */
      lot: LotRecord | undefined;
      /** The queued bidders' entries as written. */
      entries: Map<string, BidderRecord>;
      /** Nothing was left in the queue behind the batch. */
      complete: boolean;
      /** The last change it decided, in queue order. */
      through: string | undefined;
    }
  | { written: false; current: { lot: LotRecord; expected: number } | undefined };

/**
 * Decides the queue's first changes (`queue`, as just read) on the lot (as handed back by a lost
 * write, else read): in order, each by the rules on the lot as the ones before left it, at the time
 * its caller sent it; a change whose caller's budget ran out is marked expired. Writes the lot with
 * every entry they change and their outcomes in one transaction, conditioned on the version and the
 * queue count read (a batch that accepts none writes the outcomes alone: each was decided on the
 * lot as it stands).
 */
export async function decideBatch(
  deps: BidsDeps,
  offeringId: string,
  timing: Timing,
  known: { lot: LotRecord; expected: number } | undefined,
  queue: { changes: QueuedChange[]; complete: boolean },
): Promise<Batch> {
  const read = known ?? (await loadLot(deps, offeringId));
  const nowMs = timing.clock();
  const start = read.lot;
  const stored = await deps.repo.getBidders(
    offeringId,
    queue.changes.map((change) => change.bidder_id),
  );
  const entries = new Map(stored.map((entry) => [entry.bidder_id, entry]));
  let stored_: Promise<BidderRecord[]> | undefined;
  /** Queued bidders' entries as this write leaves them (written whole, once each). */
  const written = new Map<string, BidderRecord>();
  /** Other bidders' standing bids this write moved out of the lot's book. */
  const pushedOut = new Map<string, BookEntry>();
  const decided: { ticket: string; outcome: QueuedOutcome }[] = [];
  const lines: BidLogLine[] = [];
  const version = read.expected + 1;
  let lot = start;
  let extended = false;
  let whole = true;
  // The whole book a decision may read (a retraction; a margin to refill) is the entries as this
  // write leaves them, not as they were stored.
  const overlaid: BidsDeps = {
    ...deps,
    repo: {
      ...deps.repo,
      biddersOf: async (id: string) => {
        // Read once per batch: what this write changes is laid over it.
        stored_ ??= deps.repo.biddersOf(id);
        const table = await stored_;
        const seen = new Set(table.map((entry) => entry.bidder_id));
        return [
          ...table.map(
            (entry) =>
              written.get(entry.bidder_id) ??
              (pushedOut.has(entry.bidder_id)
                ? { ...entry, standing: pushedOut.get(entry.bidder_id) ?? null }
                : entry),
          ),
          ...[...written.values()].filter((entry) => !seen.has(entry.bidder_id)),
        ];
      },
    } as BidsRepo,
  };
  const items = (extra: { written?: string; pushed?: readonly string[] } = {}) => {
    const ids = new Set(written.keys());
    if (extra.written !== undefined) ids.add(extra.written);
    const out = new Set([...pushedOut.keys(), ...(extra.pushed ?? [])]);
    for (const id of ids) out.delete(id);
    // The lot, the entries, the pushed out, the outcomes (one more), the lagging marker.
    return 1 + ids.size + out.size + decided.length + 1 + 1;
  };
  for (const change of queue.changes) {
    if (items() > TRANSACT_MAX_ITEMS) {
      whole = false;
      break;
    }
    if (change.until <= nowMs) {
      decided.push({ ticket: change.ticket, outcome: { status: 'expired' } });
      continue;
    }
    // One write per entry: a bidder's second queued change waits for the next write.
    if (written.has(change.bidder_id)) {
      whole = false;
      break;
    }
    const mine = entries.get(change.bidder_id);
    let applied: LotChange;
    try {
      applied = await queuedDecision(overlaid, offeringId, change)(lot, mine, { entry: false });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      decided.push({ ticket: change.ticket, outcome: refusedOutcome(error) });
      continue;
    }
    const kept = new Set(applied.next.auction.book.map((entry) => entry.bidder_id));
    const evicted = lot.contending
      ? lot.auction.book.filter(
          (entry) => entry.bidder_id !== change.bidder_id && !kept.has(entry.bidder_id),
        )
      : [];
    if (
      items({ written: change.bidder_id, pushed: evicted.map((entry) => entry.bidder_id) }) >
      TRANSACT_MAX_ITEMS
    ) {
      whole = false;
      break;
    }
    lines.push({
      ...applied.line,
      index: lot.log,
      follow: followNoteOf({
        outcome: applied.outcome,
        sync: false,
        bidderId: change.bidder_id,
        newBidder: applied.newBidder,
      }),
    });
    written.set(change.bidder_id, applied.bidder);
    pushedOut.delete(change.bidder_id);
    for (const entry of evicted) {
      const record = written.get(entry.bidder_id);
      if (record !== undefined) written.set(entry.bidder_id, { ...record, standing: entry });
      else {
        pushedOut.set(entry.bidder_id, entry);
        // A later change of theirs in this write decides on the standing they have now.
        const before = entries.get(entry.bidder_id);
        if (before !== undefined) entries.set(entry.bidder_id, { ...before, standing: entry });
      }
    }
    extended ||= applied.outcome.extended;
    decided.push({ ticket: change.ticket, outcome: { status: 'accepted', version } });
    lot = { ...applied.next, log: lot.log + 1 };
  }
  const outcomes = new Map(decided.map((entry) => [entry.ticket, entry.outcome]));
  const complete = whole && queue.complete;
  const last = lines.at(-1);
  if (last === undefined) {
    // Nothing accepted: each outcome was decided on the lot as read, which this leaves as it is.
    if (
      !(await deps.repo.decideQueued(
        offeringId,
        decided,
        read.expected,
        complete ? (start.queued ?? 0) : undefined,
      ))
    ) {
      return { written: false, current: undefined };
    }
    return {
      written: true,
      decided: outcomes,
      lot: undefined,
      entries: new Map(),
      complete,
      through: decided.at(-1)?.ticket,
    };
  }
  const now = new Date(nowMs);
  const at = now.toISOString();
  const next: LotRecord = {
    ...lot,
    version,
    dequeued: (start.dequeued ?? 0) + decided.length,
    // Every change queued when the lot was read is decided: the lot's queue is empty again.
    ...(complete ? { drained: start.queued ?? 0 } : {}),
  };
  const sync = syncDue(next, now, extended);
  Object.assign(
    next,
    sync
      ? { synced_at: at, synced_bids: bidderCount(next.auction), stale: false }
      : { stale: true },
  );
  const follow = last.follow as ReturnType<typeof followNoteOf>;
  const line: BidLogLine = { ...last, follow: { ...follow, sync } };
  const bidders = [...written.values()].map((entry) => ({ ...entry, lot_version: version }));
  const result = await deps.repo.commit(
    next,
    read.expected,
    { version, line, ...(lines.length > 1 ? { lines: lines.slice(0, -1) } : {}) },
    bidders,
    [...pushedOut.values()].filter((entry) => !written.has(entry.bidder_id)),
    next.stale && !start.stale,
    decided,
  );
  if (!result.written) {
    if (result.current === undefined) return { written: false, current: undefined };
    remember(result.current);
    return {
      written: false,
      current: { lot: result.current, expected: result.current.version },
    };
  }
  remember(next);
  for (const entry of bidders) rememberBidder(entry);
  return {
    written: true,
    decided: outcomes,
    lot: next,
    entries: new Map(bidders.map((entry) => [entry.bidder_id, entry])),
    complete,
    through: decided.at(-1)?.ticket,
  };
}

/** How a queued change is decided: by the rules, with what its caller resolved. */
function queuedDecision(deps: BidsDeps, offeringId: string, change: QueuedChange): Decide {
  const at = new Date(change.at);
  if (change.kind === 'cancel') return cancelDecision(deps, change.bidder_id, at);
  const bid = change.bid;
  if (bid === undefined) throw new Error('a queued bid without its terms');
  return bidDecision(
    deps,
    {
      callerId: change.bidder_id,
      offeringId,
      bidprice: bid.amount,
      maxbid: bid.max,
      currency: bid.currency,
      quantity: bid.quantity,
      payment_method: null,
      postaladdress: bid.address,
    },
    at,
    { card: bid.card, nick: bid.nick },
  );
}

/** The facts of an entry a bid does not change (its standing, dates and versions aside). */
function sameFacts(before: BidderRecord, after: BidderRecord): boolean {
  return (
    before.nick === after.nick &&
    before.card?.id === after.card?.id &&
    JSON.stringify(before.address) === JSON.stringify(after.address) &&
    before.cancelled_at === after.cancelled_at &&
    before.status === after.status &&
    before.group === after.group
  );
}

/**
 * Which entries a change writes with its lot. A contending lot's book holds the standing bid of
 * every bidder in it, so a rebid that keeps its bidder in the book (their card and address as
 * they were) writes the lot alone, and the stream brings their entry up to date for My Bids. A
 * bidder the change leaves out of the book has their standing bid on their entry alone from then
 * on: their entry is written with the lot (the caller's whole; anyone else the change pushed out,
 * their standing bid), so a later bid, a retraction or the close, which decide on entries, never
 * wait for the stream. A lot keeping every bid writes the caller's entry each time, as before.
 */
function entryWrites(
  lot: LotRecord,
  next: LotRecord,
  callerId: string,
  mine: BidderRecord | undefined,
  change: LotChange,
): { caller: boolean; evicted: BookEntry[] } {
  if (!lot.contending) return { caller: true, evicted: [] };
  const kept = new Set(next.auction.book.map((entry) => entry.bidder_id));
  const evicted = lot.auction.book.filter(
    (entry) => entry.bidder_id !== callerId && !kept.has(entry.bidder_id),
  );
  const stays =
    change.line.kind === 'bid' &&
    mine !== undefined &&
    mine.version > 0 &&
    lot.auction.book.some((entry) => entry.bidder_id === callerId) &&
    kept.has(callerId) &&
    sameFacts(mine, change.bidder);
  return { caller: !stays, evicted };
}

/**
 * The book a change is decided on: a contending lot's book plus the caller's own standing bid if it
 * was left out (it ranks below every bid kept, so the standing is the same).
 */
function bookFor(lot: LotRecord, mine: BidderRecord | undefined): AuctionState {
  const own = mine?.standing ?? null;
  if (!lot.contending || own === null) return lot.auction;
  if (lot.auction.book.some((entry) => entry.bidder_id === own.bidder_id)) return lot.auction;
  return { ...lot.auction, book: [...lot.auction.book, own] };
}

/**
 * Every bidder's standing bid, from their entries (a retraction; a contending margin to refill),
 * with the caller's as this change makes it when given.
 */
async function wholeBook(
  deps: BidsDeps,
  lot: LotRecord,
  state: AuctionState,
  caller?: { id: string; standing: BookEntry | null },
): Promise<AuctionState> {
  const entries = await deps.repo.biddersOf(lot.offering_id);
  const book = mergedBook(
    state.book.filter((entry) => entry.bidder_id !== caller?.id),
    entries.filter((entry) => entry.bidder_id !== caller?.id),
  );
  if (caller?.standing) book.push(caller.standing);
  return { ...state, book };
}

/**
 * The lot's state to store after a change: its contending bids alone, the margin filled from the
 * bidders' entries when the change left it short. A lot written before keeps every bid.
 */
async function storedState(
  deps: BidsDeps,
  lot: LotRecord,
  state: AuctionState,
  caller: { id: string; standing: BookEntry | null },
): Promise<AuctionState> {
  if (!lot.contending) return state;
  const cut = contending(state);
  if (!cut.short) return cut.state;
  return contending(await wholeBook(deps, lot, state, caller)).state;
}

/** The caller's entry after this change: their card and address, dates and a new version. */
function entryAfter(
  lot: LotRecord,
  callerId: string,
  mine: BidderRecord | undefined,
  change: Pick<BidderRecord, 'nick' | 'card' | 'address' | 'cancelled_at' | 'status' | 'standing'>,
  at: string,
): BidderRecord {
  return {
    offering_id: lot.offering_id,
    bidder_id: callerId,
    ...change,
    first_at: mine?.first_at ?? at,
    last_at: at,
    group: 'active',
    version: (mine?.version ?? 0) + 1,
  };
}

/**
 * How a bid is decided on a lot and the bidder's entry, at `now`. `known`: what its caller
 * resolved before it was queued (the card checked with Stripe, the nick), so a writer deciding it
 * calls nothing outside the table; else the card is checked (once: a retry keeps it).
 */
function bidDecision(
  deps: BidsDeps,
  input: BidInput,
  now: Date,
  known: { card: CardRef; nick: string } | null = null,
): Decide {
  // The card checked with Stripe on a first attempt, kept for a retry after a lost race.
  let checked: CardRef | null = known?.card ?? null;
  return async (lot, mine, usage) => {
    await checkBidder(deps, lot, input.callerId);
    if (input.currency !== lot.currency) {
      throw new DomainError('market.bid.errors.currency', {
        message: `Bids on this auction are in ${lot.currency}.`,
        fields: { currency: 'market.bid.errors.currency' },
      });
    }
    const book = bookFor(lot, mine);
    // The rules read the caller's entry when their bid was left out of the lot's book.
    usage.entry = book !== lot.auction;
    const standing = book.book.find((entry) => entry.bidder_id === input.callerId);
    const nick =
      (mine?.nick || standing?.bidder_nick) ??
      (known?.nick || (await deps.nickOf(input.callerId)) || '');
    const outcome = placeRule(
      book,
      {
        bidder_id: input.callerId,
        bidder_nick: nick,
        amount: input.bidprice,
        max: input.maxbid,
        quantity: input.quantity,
      },
      now,
      lot.start_at,
    );
    if (!outcome.ok) throw refusal(lot, input.callerId, input.bidprice, outcome);
    // The address and the card may come from the entry.
    usage.entry = true;
    const address = addressFor(lot, mine?.address ?? null, input.postaladdress);
    const card = await cardFor(
      deps,
      lot,
      input.callerId,
      checked ?? mine?.card ?? null,
      input.payment_method,
      now,
    );
    checked = card;
    const at = now.toISOString();
    const placed = outcome.state.book.find((entry) => entry.bidder_id === input.callerId) ?? null;
    const auction = await storedState(deps, lot, outcome.state, {
      id: input.callerId,
      standing: placed,
    });
    return {
      outcome,
      next: { ...lot, auction },
      line: {
        kind: 'bid',
        bidder_id: input.callerId,
        nick,
        amount: input.bidprice,
        max: input.maxbid ?? input.bidprice,
        quantity: input.quantity,
        seq: outcome.seq,
        at,
      },
      bidder: entryAfter(
        lot,
        input.callerId,
        mine,
        { nick, card, address, cancelled_at: null, status: null, standing: placed },
        at,
      ),
      // The seller hears of a new bidder (or one back after retracting), not of each rebid.
      newBidder: mine === undefined || mine.cancelled_at !== null,
    };
  };
}

/**
 * Places a bid (bid/create). `now`: when it was sent; `budget`: its invocation's time left (the
 * handler's `context.getRemainingTimeInMillis()`), within which it is decided and answered.
 */
export async function createBid(
  deps: BidsDeps,
  input: BidInput,
  now: Date,
  budget: Budget,
): Promise<AuctionView> {
  return changeLot(
    deps,
    input.offeringId,
    input.callerId,
    timingOf(now, budget),
    bidDecision(deps, input, now),
    (change) => {
      const { card, address, nick } = change.bidder;
      if (card === null) throw new Error('an accepted bid without its card');
      return {
        kind: 'bid',
        bidder_id: input.callerId,
        at: now.toISOString(),
        bid: {
          amount: input.bidprice,
          max: input.maxbid,
          quantity: input.quantity,
          currency: input.currency,
          nick,
          card,
          address,
        },
      };
    },
  );
}

/** How a retraction is decided on a lot and the bidder's entry, at `now`. */
function cancelDecision(deps: BidsDeps, callerId: string, now: Date): Decide {
  const input = { callerId };
  return async (lot, mine) => {
    if (!(await mayBid(lot, input.callerId, deps.offerings.isInvited))) throw notFound();
    if (lot.phase !== 'open') {
      throw new DomainError('market.bid.errors.ended', { message: 'This auction has ended.' });
    }
    // A retraction may bring back bids a contending lot left out: it is decided on them all, as
    // the entries (the caller's too) stand now.
    const whole = lot.contending ? await wholeBook(deps, lot, lot.auction) : lot.auction;
    const outcome = cancelRule(whole, input.callerId, now);
    if (!outcome.ok) {
      throw new DomainError(outcome.code, {
        message: `The cancellation was refused (${outcome.code}).`,
        details: { minimBid: outcome.min_next },
      });
    }
    const at = now.toISOString();
    const entry = whole.book.find((candidate) => candidate.bidder_id === input.callerId);
    const nick = mine?.nick || entry?.bidder_nick || '';
    const auction = lot.contending ? contending(outcome.state).state : outcome.state;
    return {
      outcome,
      next: { ...lot, auction },
      line: {
        kind: 'cancel',
        bidder_id: input.callerId,
        nick,
        amount: entry?.amount ?? 0,
        max: entry?.max ?? 0,
        quantity: entry?.quantity ?? 0,
        seq: outcome.seq,
        at,
      },
      bidder: entryAfter(
        lot,
        input.callerId,
        mine,
        {
          nick,
          card: mine?.card ?? null,
          address: mine?.address ?? null,
          cancelled_at: at,
          status: 'cancelled',
          standing: null,
        },
        at,
      ),
      newBidder: false,
    };
  };
}

/** Retracts the caller's bid (bid/cancel), within its invocation's budget as a bid is. */
export async function cancelBid(
  deps: BidsDeps,
  input: { callerId: string; offeringId: string },
  now: Date,
  budget: Budget,
): Promise<AuctionView> {
  return changeLot(
    deps,
    input.offeringId,
    input.callerId,
    timingOf(now, budget),
    cancelDecision(deps, input.callerId, now),
    () => ({ kind: 'cancel', bidder_id: input.callerId, at: now.toISOString() }),
  );
}
