import { AUCTION_LIMITS } from './constants/limits';

/**
 * The auction rules (issue 13 §1–§2; spec 000 §4 bid status, §5 bid rules, §9 bid expiry), in one
 * pure module: a lot's state plus a bid (or a cancellation) gives the new state and its
 * allocation. The server applies it authoritatively (functions/bids), the bid form runs it for the
 * minimum next bid, and the table tests in auction.test.ts pin every rule. docs/auctions.md explains
 * the rules with worked examples.
 *
 * - **Proxy bidding.** A bid has a visible `amount` per copy and an optional secret `max` (its
 *   proxy ceiling, ≥ amount). The system bids for the bidder only what keeps them allocated: one
 *   increment above the best competing maximum, never above their own maximum, never below their
 *   own amount.
 * - **Ranking.** Bids rank by maximum, highest first; among equal maxima the earlier bid wins.
 * - **Multi-copy lots.** The lot's K copies go down the ranking: each bid gets as many copies as it
 *   asks for while copies remain, so the last allocated bid may get fewer than it asked for (a
 *   partial fill). Every winner pays their own price per copy: the competition's maximum plus one
 *   increment, capped at their own maximum.
 * - **Increments** by price tier (`BID_INCREMENTS`, minor units of a two-decimals currency).
 * - **Threshold.** While copies are unallocated, a bid needs the offering's minimum bid; once all
 *   are allocated, the lowest winning price plus its increment.
 * - **Reserve** (hidden): bids whose maximum is below it win nothing; winners pay at least it.
 *   Below it bids still compete for the copies it leaves unsold (eBay): they lead, set the
 *   threshold and the visible price and are outbid as above it (`Standing.leaders`); only winners
 *   get copies at the close.
 * - **Soft close.** A bid or cancellation that changes who leads within the last
 *   `soft_close_ms` moves the end to now + `soft_close_ms`.
 * - **Retraction** (eBay's rule): a bidder may cancel while more than 12 hours remain, or within
 *   1 hour of placing their latest bid; never after the end.
 */

/** Price tiers: from `from` (minor units) up, the increment is `step` (eBay's USD table). */
export const BID_INCREMENTS: readonly { from: number; step: number }[] = [
  { from: 0, step: 5 },
  { from: 100, step: 25 },
  { from: 500, step: 50 },
  { from: 2_500, step: 100 },
  { from: 10_000, step: 250 },
  { from: 25_000, step: 500 },
  { from: 50_000, step: 1_000 },
  { from: 100_000, step: 2_500 },
  { from: 250_000, step: 5_000 },
  { from: 500_000, step: 10_000 },
];

export { AUCTION_LIMITS };

/** The increment that applies at `price` (minor units). */
export function incrementAt(price: number): number {
  let step = 0;
  for (const tier of BID_INCREMENTS) {
    if (price >= tier.from) step = tier.step;
  }
  return step;
}

/** One bidder's standing bid (a rebid replaces it; one entry per bidder). */
export interface BookEntry {
  bidder_id: string;
  bidder_nick: string;
  /** The visible bid per copy: the bidder pays at least this if they win. */
  amount: number;
  /** The secret maximum per copy (= amount without proxy). */
  max: number;
  quantity: number;
  /** Acceptance order of the bidder's first bid at this maximum: earlier wins ties. */
  seq: number;
  /** When the bidder's latest bid was accepted (ISO). */
  placed_at: string;
}

export interface AuctionState {
  copies: number;
  /** The offering's minimum bid per copy. */
  min_price: number;
  /** Hidden reserve per copy, or null. */
  reserve: number | null;
  /** false: one copy per bidder. */
  multi_copy: boolean;
  soft_close_ms: number;
  /** The current end (ISO); soft close moves it. */
  end_at: string;
  /** The last acceptance number given. */
  seq: number;
  /**
   * The standing bids: all of them, or (a stored open lot) the contending ones alone, with the
   * others kept elsewhere (`contending`).
   */
  book: BookEntry[];
  /** Bidders with a standing bid; absent: the book's length (a book that holds them all). */
  bidders?: number;
}

/** How many bidders have a standing bid on the lot. */
export function bidderCount(state: AuctionState): number {
  return state.bidders ?? state.book.length;
}

export interface Allocation {
  bidder_id: string;
  copies: number;
  /** What the bidder pays per copy if the auction ended now. */
  price: number;
}

export interface Standing {
  /** Winners in rank order: who would get copies if the auction ended now (the reserve met). */
  allocation: Allocation[];
  /**
   * Who leads, in rank order: the winners, then (a reserve not met for every copy) the bids below
   * it that would get the copies left, at the price their competition sets. Bids compete below
   * the reserve as above it (eBay): the threshold, the visible prices, the statuses, the outbids
   * and the soft close follow the leaders; only winners get copies at the close.
   */
  leaders: Allocation[];
  /** The smallest amount per copy a new bidder may bid. */
  min_next: number;
  /** The highest current price per copy among the leaders, or null without bids. */
  highest: number | null;
  /** null without a reserve; else whether some bid reaches it. */
  reserve_met: boolean | null;
  /** Copies no winner gets (no bids, or bids below the reserve). */
  unallocated: number;
}

/** The book in rank order: maximum first, then the earlier bid. */
export function ranked(book: readonly BookEntry[]): BookEntry[] {
  return [...book].sort((a, b) => b.max - a.max || a.seq - b.seq);
}

/**
 * Copies down the ranking `order` for bids whose maximum reaches `floor`, each at its price: one
 * increment above the best competing maximum (anyone in `order` left without all they asked
 * for), at least `floor` and its own amount, at most its own maximum.
 */
function allocate(
  order: readonly BookEntry[],
  copies: number,
  floor: number,
): { allocation: Allocation[]; remaining: number } {
  let remaining = copies;
  const taken = new Map<string, number>();
  for (const entry of order) {
    if (remaining === 0) break;
    if (entry.max < floor) continue;
    const count = Math.min(entry.quantity, remaining);
    taken.set(entry.bidder_id, count);
    remaining -= count;
  }
  const allocation: Allocation[] = [];
  for (const entry of order) {
    const count = taken.get(entry.bidder_id);
    if (count === undefined) continue;
    // The best competing maximum: the highest bid of anyone else left (partly) without copies.
    let competition: number | null = null;
    for (const other of order) {
      if (other.bidder_id === entry.bidder_id) continue;
      if ((taken.get(other.bidder_id) ?? 0) >= other.quantity) continue;
      competition = other.max;
      break;
    }
    const wanted = Math.max(
      floor,
      entry.amount,
      competition === null ? 0 : competition + incrementAt(competition),
    );
    allocation.push({
      bidder_id: entry.bidder_id,
      copies: count,
      price: Math.min(entry.max, wanted),
    });
  }
  return { allocation, remaining };
}

/** Where the lot stands: who would win what, at what price, and what the next bid needs. */
export function standingOf(state: AuctionState): Standing {
  const order = ranked(state.book);
  const winners = allocate(order, state.copies, Math.max(state.min_price, state.reserve ?? 0));
  let leaders = winners.allocation;
  let remaining = winners.remaining;
  if (remaining > 0 && state.reserve !== null) {
    // The copies the reserve leaves unsold, among the bids below it (they rank below every
    // winner): they compete for them as for any copy, so the threshold and the prices move.
    const held = new Set(winners.allocation.map((winner) => winner.bidder_id));
    const below = allocate(
      order.filter((entry) => !held.has(entry.bidder_id)),
      remaining,
      state.min_price,
    );
    leaders = [...winners.allocation, ...below.allocation];
    remaining = below.remaining;
  }
  let minNext = state.min_price;
  if (remaining === 0 && leaders.length > 0) {
    const lowest = Math.min(...leaders.map((leader) => leader.price));
    minNext = Math.max(state.min_price, lowest + incrementAt(lowest));
  }
  return {
    allocation: winners.allocation,
    leaders,
    min_next: minNext,
    highest: leaders.length === 0 ? null : Math.max(...leaders.map((leader) => leader.price)),
    reserve_met:
      state.reserve === null
        ? null
        : state.book.some((e) => e.max >= Math.max(state.min_price, state.reserve ?? 0)),
    unallocated: winners.remaining,
  };
}

/** Who leads as a comparable set: who gets how many copies (prices aside). */
function allocationKey(standing: Standing): string {
  return standing.leaders
    .map((winner) => `${winner.bidder_id}:${winner.copies}`)
    .sort()
    .join(',');
}

export interface BidInput {
  bidder_id: string;
  bidder_nick: string;
  amount: number;
  /** The proxy maximum, or null for none (= amount). */
  max: number | null;
  quantity: number;
}

/** The error codes of a refused bid or cancellation (shared/errors; texts in en.json). */
export type BidRefusal =
  | 'market.bid.errors.ended'
  | 'market.bid.errors.not_started'
  | 'market.bid.errors.amount'
  | 'market.bid.errors.too_low'
  | 'market.bid.errors.max_below_amount'
  | 'market.bid.errors.quantity'
  | 'market.bid.errors.one_copy'
  | 'market.bid.errors.rebid_quantity'
  | 'market.bid.errors.not_higher'
  | 'market.bid.errors.too_many_bidders'
  | 'market.bid.errors.no_bid'
  | 'market.bid.errors.retract_closed';

export type BidOutcome =
  | {
      ok: true;
      state: AuctionState;
      standing: Standing;
      /** The acceptance number of this bid. */
      seq: number;
      /** Who leads changed (someone gained or lost copies, reserve met or not). */
      changed: boolean;
      /** The end moved (soft close); the new end is state.end_at. */
      extended: boolean;
      /** Bidders who held copies before and hold fewer now. */
      outbid: string[];
    }
  | { ok: false; code: BidRefusal; min_next: number };

const isWholeAmount = (value: number) =>
  Number.isSafeInteger(value) && value >= 1 && value <= AUCTION_LIMITS.maxBid;

/** Applies the soft close and compares standings before and after a change of the book. */
function settle(
  before: AuctionState,
  book: BookEntry[],
  seq: number,
  now: Date,
): Omit<Extract<BidOutcome, { ok: true }>, 'ok' | 'seq'> {
  const old = standingOf(before);
  let state: AuctionState = { ...before, book, seq };
  const standing = standingOf(state);
  const changed = allocationKey(old) !== allocationKey(standing);
  const end = Date.parse(state.end_at);
  let extended = false;
  const moved = now.getTime() + state.soft_close_ms;
  // Never earlier than an end an earlier extension set.
  if (changed && end - now.getTime() <= state.soft_close_ms && moved > end) {
    state = { ...state, end_at: new Date(moved).toISOString() };
    extended = true;
  }
  const held = new Map(standing.leaders.map((winner) => [winner.bidder_id, winner.copies]));
  const outbid = old.leaders
    .filter((winner) => (held.get(winner.bidder_id) ?? 0) < winner.copies)
    .map((winner) => winner.bidder_id);
  return { state, standing, changed, extended, outbid };
}

/**
 * A bid (or a rebid: the bidder's entry is replaced) against the lot at `now`. `start_at` is the
 * offering's start: bids before it are refused.
 */
export function placeBid(
  state: AuctionState,
  bid: BidInput,
  now: Date,
  start_at?: string,
): BidOutcome {
  const current = standingOf(state);
  const refuse = (code: BidRefusal): BidOutcome => ({
    ok: false,
    code,
    min_next: current.min_next,
  });
  if (now.getTime() >= Date.parse(state.end_at)) return refuse('market.bid.errors.ended');
  if (start_at !== undefined && now.getTime() < Date.parse(start_at)) {
    return refuse('market.bid.errors.not_started');
  }
  if (!isWholeAmount(bid.amount)) return refuse('market.bid.errors.amount');
  const max = bid.max ?? bid.amount;
  if (!isWholeAmount(max)) return refuse('market.bid.errors.amount');
  if (max < bid.amount) return refuse('market.bid.errors.max_below_amount');
  if (!Number.isInteger(bid.quantity) || bid.quantity < 1 || bid.quantity > state.copies) {
    return refuse('market.bid.errors.quantity');
  }
  if (!state.multi_copy && bid.quantity !== 1) return refuse('market.bid.errors.one_copy');
  const previous = state.book.find((entry) => entry.bidder_id === bid.bidder_id);
  if (previous !== undefined) {
    if (previous.quantity !== bid.quantity) return refuse('market.bid.errors.rebid_quantity');
    if (max <= previous.max) return refuse('market.bid.errors.not_higher');
  } else if (bidderCount(state) >= AUCTION_LIMITS.maxBidders) {
    return refuse('market.bid.errors.too_many_bidders');
  }
  const winning = current.leaders.find((winner) => winner.bidder_id === bid.bidder_id);
  const fullyHeld = winning !== undefined && winning.copies === bid.quantity;
  // A winner holding all they asked for may raise their maximum; anyone else must beat the
  // threshold with their visible amount (and never bid below their own earlier amount).
  if (!fullyHeld && bid.amount < current.min_next) return refuse('market.bid.errors.too_low');
  if (previous !== undefined && bid.amount < previous.amount) {
    return refuse('market.bid.errors.not_higher');
  }
  const seq = state.seq + 1;
  const entry: BookEntry = {
    bidder_id: bid.bidder_id,
    bidder_nick: bid.bidder_nick,
    amount: bid.amount,
    max,
    quantity: bid.quantity,
    seq,
    placed_at: now.toISOString(),
  };
  const book = [...state.book.filter((other) => other.bidder_id !== bid.bidder_id), entry];
  const bidders = bidderCount(state) + (previous === undefined ? 1 : 0);
  return { ok: true, seq, ...settle({ ...state, bidders }, book, seq, now) };
}

/** Whether the bidder may retract now (eBay's rule; see the module comment). */
export function canRetract(state: AuctionState, entry: BookEntry, now: Date): boolean {
  const left = Date.parse(state.end_at) - now.getTime();
  if (left <= 0) return false;
  if (left > AUCTION_LIMITS.retractFreeMs) return true;
  return now.getTime() - Date.parse(entry.placed_at) < AUCTION_LIMITS.retractRecentMs;
}

/** Retracts the bidder's bid: their entry leaves the book and the others' prices follow. */
export function cancelBid(state: AuctionState, bidder_id: string, now: Date): BidOutcome {
  const current = standingOf(state);
  const entry = state.book.find((other) => other.bidder_id === bidder_id);
  if (entry === undefined) {
    return { ok: false, code: 'market.bid.errors.no_bid', min_next: current.min_next };
  }
  if (!canRetract(state, entry, now)) {
    const code = now.getTime() >= Date.parse(state.end_at) ? 'ended' : 'retract_closed';
    return { ok: false, code: `market.bid.errors.${code}`, min_next: current.min_next };
  }
  const book = state.book.filter((other) => other.bidder_id !== bidder_id);
  const bidders = bidderCount(state) - 1;
  return { ok: true, seq: state.seq, ...settle({ ...state, bidders }, book, state.seq, now) };
}

/**
 * Bids not fully allocated that a contending book keeps below its winners. A bid or rebid moves
 * at most one bid (the bidder's) out of that margin, and the prices need the first two of it, so
 * a book cut to its winners and this margin decides the next bid exactly as the whole book would.
 */
export const CONTENDING_MARGIN = 3;

/**
 * The contending part of a book: every bid that gets copies, and below them the first
 * CONTENDING_MARGIN bids not fully allocated; the rest cannot change the standing until a
 * retraction or the close, which read the whole book again. `short`: the margin is not full while
 * bids are left out (a bid moved out of it without pushing another in), so the whole book must be
 * read to fill it. A bid on a contending book is decided on that book plus the bidder's own
 * earlier bid, if it was left out (it ranks below all kept, so the standing does not change).
 */
export function contending(state: AuctionState): { state: AuctionState; short: boolean } {
  const taken = new Map(standingOf(state).leaders.map((w) => [w.bidder_id, w.copies]));
  const kept = new Set<string>();
  let margin = 0;
  for (const entry of ranked(state.book)) {
    const copies = taken.get(entry.bidder_id) ?? 0;
    if (copies >= entry.quantity) {
      kept.add(entry.bidder_id);
      continue;
    }
    if (copies === 0 && margin >= CONTENDING_MARGIN) continue;
    kept.add(entry.bidder_id);
    margin += 1;
  }
  const book = state.book.filter((entry) => kept.has(entry.bidder_id));
  const bidders = bidderCount(state);
  return {
    state: { ...state, book, bidders },
    short: margin < CONTENDING_MARGIN && bidders > book.length,
  };
}

/** Replays accepted bids and cancellations in acceptance order (the load test's oracle). */
export type BookAction =
  { kind: 'bid'; bid: BidInput; at: string } | { kind: 'cancel'; bidder_id: string; at: string };

export function replay(initial: AuctionState, actions: readonly BookAction[]): AuctionState {
  let state = initial;
  for (const action of actions) {
    const outcome =
      action.kind === 'bid'
        ? placeBid(state, action.bid, new Date(action.at))
        : cancelBid(state, action.bidder_id, new Date(action.at));
    if (!outcome.ok) throw new Error(`replay refused ${action.kind}: ${outcome.code}`);
    state = outcome.state;
  }
  return state;
}

// --- the close: winners, substitutes ---------------------------------------------------------

/**
 * A copy offer made at the close or to a substitute: `round` 0 is the winners, 1… substitutes.
 * `price` is per copy: a winner's price at the close, a substitute's own maximum (eBay's second
 * chance offer: the highest amount they were ready to pay).
 */
export interface Offer {
  bidder_id: string;
  copies: number;
  price: number;
  round: number;
}

/** The winners at the end (round 0): the standing's allocation. */
export function winnersOf(state: AuctionState): Offer[] {
  return standingOf(state).allocation.map((winner) => ({ ...winner, round: 0 }));
}

/**
 * The next substitutes for `free` copies, after the offers made so far: down the ranking, skipping
 * bidders whose offer lapsed unpaid, each offered what they asked for less what they already got,
 * at their own maximum. Bids below the reserve never get an offer.
 */
export function substitutesFor(
  state: AuctionState,
  offers: readonly Offer[],
  lapsed: ReadonlySet<string>,
  free: number,
  round: number,
): Offer[] {
  const floor = Math.max(state.min_price, state.reserve ?? 0);
  const out: Offer[] = [];
  let remaining = free;
  for (const entry of ranked(state.book)) {
    if (remaining === 0) break;
    if (entry.max < floor || lapsed.has(entry.bidder_id)) continue;
    const got = offers
      .filter((offer) => offer.bidder_id === entry.bidder_id)
      .reduce((sum, offer) => sum + offer.copies, 0);
    const copies = Math.min(entry.quantity - got, remaining);
    if (copies <= 0) continue;
    out.push({ bidder_id: entry.bidder_id, copies, price: entry.max, round });
    remaining -= copies;
  }
  return out;
}

/** Spec 000 §9: a bid (and the payment window of an offer made at the end) expires then. */
export function bidExpiryOf(end_at: string): string {
  return new Date(Date.parse(end_at) + AUCTION_LIMITS.bidExpiryMs).toISOString();
}
