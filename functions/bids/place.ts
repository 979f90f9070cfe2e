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
import { DomainError } from '../core/errors';
import { imageUrls } from '../items/index';
import type { OfferingRecord } from '../offerings/index';
import type { BidLogLine, BidderRecord } from './bids.repo';
import { mergedBook, newLot, syncDue, viewOf, mayBid, type CardRef, type LotRecord } from './lot';
import { followNoteOf } from './follow-up';
import type { BidsDeps } from './ports';

/**
 * Bidding (issue 13 §1, §3): `POST users/{id}/bid/create` and `bid/cancel/{offeringid}`. A bid
 * reads the lot, runs the rules (shared/auction.ts) and writes the new lot conditioned on the
 * version it read, with the entries a later decision reads (`entryWrites`): a rebid that keeps its
 * bidder in the lot's book writes the lot alone. A lost race re-runs the rules on the lot as it
 * stands, so bids on one lot are applied one at a time in a total order: none is lost, none is
 * accepted below the threshold it meets, and the lot always equals its log replayed. The log line,
 * the entries left to it and what others see (the live channel, notifications, the offering's
 * counters) follow from the lot's note on the table's stream.
 */

/** How long a bid keeps retrying a busy lot before answering 'Error sending bid'. */
const BUSY_BUDGET_MS = 20_000;

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

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** Full jitter, growing with the attempt, capped (many bidders racing on one hot lot). */
function backoff(attempt: number): Promise<void> {
  const cap = Math.min(250, 4 * 2 ** Math.min(attempt, 6));
  return sleep(Math.random() * cap);
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

function busy(): DomainError {
  return new DomainError('market.bid.errors.generic', {
    message: 'Error sending bid, please try again',
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
 * Applies a change to a lot, one at a time with every other writer: decides on the lot and the
 * caller's entry in it (the container's copies, else read), writes the lot and the entries the
 * change must write conditioned on the versions decided on, and on a lost race decides again on
 * what now stands. The log line and what follows go on the lot as its note (the bidEvents stream
 * trigger carries them out); answers the lot as the caller sees it.
 */
async function changeLot(
  deps: BidsDeps,
  offeringId: string,
  callerId: string,
  now: Date,
  decide: (
    lot: LotRecord,
    mine: BidderRecord | undefined,
    usage: { entry: boolean },
  ) => Promise<LotChange>,
): Promise<AuctionView> {
  const started = Date.now();
  const slot = bidderSlot(offeringId, callerId);
  let known: { lot: LotRecord; expected: number; fresh: boolean } | null = null;
  let mine: { record: BidderRecord | undefined; fresh: boolean } | null = null;
  for (let attempt = 0; ; attempt += 1) {
    if (known === null || mine === null) {
      const recent: LotRecord | undefined = known === null ? recentLots.get(offeringId) : undefined;
      const recentMine: BidderRecord | undefined =
        mine === null ? recentBidders.get(slot) : undefined;
      const [lotRead, mineRead]: [
        { lot: LotRecord; expected: number } | undefined,
        BidderRecord | undefined,
      ] = await Promise.all([
        known === null && recent === undefined ? loadLot(deps, offeringId) : undefined,
        mine === null && recentMine === undefined
          ? deps.repo.getBidder(offeringId, callerId)
          : undefined,
      ]);
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
    const { lot, expected, fresh } = known;
    let change: LotChange;
    // Whether the decision rested on the caller's entry (a refusal on a stale one is not given).
    const usage = { entry: false };
    try {
      change = await decide(lot, mine.record, usage);
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
    const result = await deps.repo.commit(
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
      // Counters current until now: the lot joins the sweeper's list of lagging ones (at most once
      // per sync interval: later bids find it stale already).
      next.stale && !lot.stale,
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
        result.bidder.current === undefined ? null : { record: result.bidder.current, fresh: true };
      if (mine?.record !== undefined) rememberBidder(mine.record);
    } else if (result.current === undefined) {
      recentLots.delete(offeringId);
      known = null;
    } else {
      remember(result.current);
      known = { lot: result.current, expected: result.current.version, fresh: true };
    }
    if (Date.now() - started > BUSY_BUDGET_MS) throw busy();
    // Every loser backs off (jittered) before deciding again, even with the lot in hand: retrying
    // at once, all the losers of a hot lot would collide again in lockstep.
    await backoff(attempt);
  }
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

export async function createBid(deps: BidsDeps, input: BidInput, now: Date): Promise<AuctionView> {
  // The card checked with Stripe on a first attempt, kept for a retry after a lost race.
  let checked: CardRef | null = null;
  return changeLot(deps, input.offeringId, input.callerId, now, async (lot, mine, usage) => {
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
      (mine?.nick || standing?.bidder_nick) ?? ((await deps.nickOf(input.callerId)) || '');
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
  });
}

export async function cancelBid(
  deps: BidsDeps,
  input: { callerId: string; offeringId: string },
  now: Date,
): Promise<AuctionView> {
  return changeLot(deps, input.offeringId, input.callerId, now, async (lot, mine) => {
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
  });
}
