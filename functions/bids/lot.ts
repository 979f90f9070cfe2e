import { createHash } from 'node:crypto';
import {
  bidderCount,
  bidExpiryOf,
  canRetract,
  ranked,
  standingOf,
  type AuctionState,
  type BookEntry,
  type Offer,
  type Standing,
} from '../../shared/auction';
import type {
  AuctionPhase,
  AuctionView,
  BidEntry,
  BidStatus,
  MyBid,
  ReserveState,
} from '../../shared/schemas/bids';
import type { FIAT_CURRENCIES } from '../../shared/money';
import type { BidderRecord } from './bids.repo';
type FiatCurrency = (typeof FIAT_CURRENCIES)[number];

/**
 * An auction's lot (issue 13): the record every bid, cancellation and closing step rewrites,
 * conditioned on its version, and the answers built from it. The rules are shared/auction.ts; this
 * file adds who bid with which card, the close's offers and the views.
 */

/** The saved card backing a bidder's bids (checked with Stripe on their first bid). */
export interface CardRef {
  id: string;
  brand: string;
  last4: string;
}

/**
 * A bidder's id in a lot's bid list (spec 000 §3 bidid): stable across their rebids, and opaque
 * (the list shows nicks, not user ids).
 */
export function bidIdOf(offeringId: string, bidderId: string): string {
  const digest = createHash('sha256').update(`${offeringId}\n${bidderId}`).digest('base64url');
  return `${offeringId}-${digest.slice(0, 12)}`;
}

/** A copy offer made at the close (round 0: winners) or to a substitute, and how it ended. */
export interface LotOffer extends Offer {
  /** The order made for it (null until made). */
  order_id: string | null;
  /** Pay by (ISO): the bid expiry for winners, the same window again for substitutes. */
  deadline: string;
  outcome: 'pending' | 'paid' | 'lapsed';
}

export interface LotRecord {
  offering_id: string;
  item_id: string;
  seller_id: string;
  /** The item's creator (spec 000 §5: cannot bid on copies they sold). */
  issuer_id: string;
  currency: FiatCurrency;
  start_at: string;
  /** The end the seller set (soft close moves `auction.end_at`). */
  scheduled_end_at: string;
  /** Private offerings: who may bid besides the public (empty for public ones). */
  access: 'public' | 'private';
  invited_ids: string[];
  /** What notifications show of the item. */
  item_title: string;
  item_image: string;
  /** How the item reaches a winner, and where it is delivered (spec 000 §5: an address). */
  delivery: 'delivery' | 'pickup' | 'none';
  countries: string[];
  phase: AuctionPhase;
  /**
   * The rules' state. While `contending`, its book holds only the bids that can change the
   * standing (the winners and the next three: `contending` in shared/auction); every bidder's
   * standing bid is on their entry, and the close puts the whole book back.
   */
  auction: AuctionState;
  /** The book holds the contending bids alone (false: every bid, as lots written before did). */
  contending: boolean;
  /** Log lines written (bids and cancellations): the next line's index. */
  log: number;
  /** When the offering's copy of the counters was last refreshed (ISO), and with what count. */
  synced_at: string | null;
  synced_bids: number;
  /** A change since the last refresh is not on the offering yet (the sweeper refreshes it). */
  stale: boolean;
  offers: LotOffer[];
  /** Reminders sent (`24h`, `6h`, `10m`). */
  reminders: string[];
  closed_at: string | null;
  /** When the close means to look again (ISO; the sweeper resumes a close that missed it). */
  next_at: string | null;
  version: number;
  /**
   * A hot lot's queue (docs/auctions.md, "A hot lot"): how many changes were ever queued under it
   * (each queued change adds one, without a version: it is no change of the lot), and how many of
   * those the last write that decided the queue had seen. More queued than drained: changes wait,
   * and the next writer decides them before its own. Absent: none ever queued.
   */
  queued?: number;
  drained?: number;
  /**
   * How many queued changes writes have decided (accepted, refused or expired): a waiting caller
   * whose change was the n-th queued knows roughly how many wait ahead of it.
   */
  dequeued?: number;
}

/** Changes queued under the lot wait to be decided (the next writer decides them first). */
export function queuePending(lot: Pick<LotRecord, 'queued' | 'drained'>): boolean {
  return (lot.queued ?? 0) > (lot.drained ?? 0);
}

/** The offering facts a lot is opened from. */
export interface LotSource {
  id: string;
  item_id: string;
  seller_id: string;
  issuer_id: string;
  currency: FiatCurrency;
  start_at: string;
  end_at: string;
  copies: number;
  price: number;
  reserve_price: number | null;
  multi_copy: boolean;
  access: 'public' | 'private';
  invited_ids: string[];
  item_title: string;
  item_image: string;
  delivery: 'delivery' | 'pickup' | 'none';
  countries: string[];
}

export function newLot(source: LotSource, softCloseMs: number): LotRecord {
  return {
    offering_id: source.id,
    item_id: source.item_id,
    seller_id: source.seller_id,
    issuer_id: source.issuer_id,
    currency: source.currency,
    start_at: source.start_at,
    scheduled_end_at: source.end_at,
    access: source.access,
    invited_ids: source.invited_ids,
    item_title: source.item_title,
    item_image: source.item_image,
    delivery: source.delivery,
    countries: source.countries,
    phase: 'open',
    auction: {
      copies: source.copies,
      min_price: source.price,
      reserve: source.reserve_price,
      multi_copy: source.multi_copy,
      soft_close_ms: softCloseMs,
      end_at: source.end_at,
      seq: 0,
      book: [],
      bidders: 0,
    },
    contending: true,
    log: 0,
    synced_at: null,
    synced_bids: 0,
    stale: false,
    offers: [],
    reminders: [],
    closed_at: null,
    next_at: null,
    version: 0,
  };
}

/** The hidden reserve as bidders see it: none, met (some maximum reaches it) or not met. */
export function reserveState(standing: Pick<Standing, 'reserve_met'>): ReserveState {
  if (standing.reserve_met === null) return 'none';
  return standing.reserve_met ? 'met' : 'not_met';
}

/**
 * A bidder's status (spec 000 §4): live from the allocation while open, from the offers after.
 * `entry` is their entry in the lot (undefined: they never bid on it).
 */
export function statusOf(
  lot: LotRecord,
  bidderId: string,
  entry: Pick<BidderRecord, 'cancelled_at' | 'standing'> | undefined,
): BidStatus | null {
  const standing = standingBid(lot, bidderId, entry);
  if (standing === undefined) return entry?.cancelled_at ? 'cancelled' : null;
  if (lot.phase === 'open') {
    const held = standingOf(lot.auction).leaders.some((w) => w.bidder_id === bidderId);
    return held ? 'active' : 'outbid';
  }
  const offers = lot.offers.filter((offer) => offer.bidder_id === bidderId);
  if (offers.length === 0) return 'notwinner';
  if (offers.some((offer) => offer.outcome === 'paid')) {
    return offers.some((offer) => offer.outcome === 'paid' && offer.round === 0)
      ? 'winner'
      : 'substitute_winner';
  }
  if (offers.some((offer) => offer.outcome === 'pending')) {
    return offers.some((offer) => offer.outcome === 'pending' && offer.round === 0)
      ? 'winner'
      : 'substitute';
  }
  return 'expired';
}

/** A bidder's standing bid: in the lot's book, else (left out of a contending book) their entry's. */
function standingBid(
  lot: LotRecord,
  bidderId: string,
  entry: Pick<BidderRecord, 'standing'> | undefined,
): BookEntry | undefined {
  return (
    lot.auction.book.find((candidate) => candidate.bidder_id === bidderId) ??
    entry?.standing ??
    undefined
  );
}

/** Copies a bidder holds now (open) or was given (closed: offers not lapsed). */
function copiesOf(lot: LotRecord, bidderId: string): number {
  if (lot.phase === 'open') {
    return standingOf(lot.auction).leaders.find((w) => w.bidder_id === bidderId)?.copies ?? 0;
  }
  return lot.offers
    .filter((offer) => offer.bidder_id === bidderId && offer.outcome !== 'lapsed')
    .reduce((sum, offer) => sum + offer.copies, 0);
}

/**
 * The bid list: standing bids in rank order, each with its visible amount and status. An open
 * contending lot lists its contending bids (the winners and the next three) and the caller's own;
 * `bids` counts them all.
 */
export function bidListOf(lot: LotRecord, mine?: BidderRecord): BidEntry[] {
  const standing = standingOf(lot.auction);
  const prices = new Map(standing.leaders.map((w) => [w.bidder_id, w.price]));
  const own = mine === undefined ? undefined : standingBid(lot, mine.bidder_id, mine);
  const listed =
    own === undefined || lot.auction.book.some((entry) => entry.bidder_id === own.bidder_id)
      ? lot.auction.book
      : [...lot.auction.book, own];
  return ranked(listed).map((entry) => {
    return {
      bidid: bidIdOf(lot.offering_id, entry.bidder_id),
      nick: entry.bidder_nick,
      // A winner's current price; anyone else was bid up to their maximum by the proxy.
      amount: prices.get(entry.bidder_id) ?? entry.max,
      quantity: entry.quantity,
      copies: copiesOf(lot, entry.bidder_id),
      status:
        statusOf(lot, entry.bidder_id, entry.bidder_id === mine?.bidder_id ? mine : undefined) ??
        'active',
      created_at: entry.placed_at,
    };
  });
}

/** The caller's bid as the lot and their entry in it show it (null: they never bid on it). */
export function myBidOf(lot: LotRecord, mine: BidderRecord | undefined, now: Date): MyBid | null {
  if (mine === undefined) return null;
  const callerId = mine.bidder_id;
  const entry = standingBid(lot, callerId, mine);
  const status = statusOf(lot, callerId, mine) ?? 'cancelled';
  const standing = standingOf(lot.auction);
  const winning = standing.leaders.find((w) => w.bidder_id === callerId);
  const offer = [...lot.offers]
    .reverse()
    .find((candidate) => candidate.bidder_id === callerId && candidate.outcome !== 'lapsed');
  const price = offer?.price ?? (lot.phase === 'open' ? (winning?.price ?? 0) : 0);
  return {
    bidid: bidIdOf(lot.offering_id, callerId),
    nick: mine.nick,
    amount: entry === undefined ? 0 : (winning?.price ?? entry.max),
    quantity: entry?.quantity ?? 0,
    copies: copiesOf(lot, callerId),
    status,
    created_at: mine.last_at,
    max: entry?.max ?? 0,
    price,
    card: mine.card,
    can_cancel: lot.phase === 'open' && entry !== undefined && canRetract(lot.auction, entry, now),
    order_id: offer?.order_id ?? null,
    pay_by: offer !== undefined && offer.outcome === 'pending' ? offer.deadline : null,
  };
}

/**
 * The lot as bid/getbyofferingid, bid/create and bid/cancel answer it; `mine` is the caller's
 * entry in it (undefined for a guest or a user who never bid on it).
 */
export function viewOf(lot: LotRecord, mine: BidderRecord | undefined, now: Date): AuctionView {
  const standing = standingOf(lot.auction);
  return {
    offeringid: lot.offering_id,
    currency: lot.currency,
    phase: lot.phase,
    end_at: lot.auction.end_at,
    scheduled_end_at: lot.scheduled_end_at,
    soft_close_minutes: Math.round(lot.auction.soft_close_ms / 60_000),
    expirationdatestamp: bidExpiryOf(lot.auction.end_at),
    copies: lot.auction.copies,
    multi_copy: lot.auction.multi_copy,
    minimum: lot.auction.min_price,
    minimBid: standing.min_next,
    highestBid: standing.highest,
    reserve: reserveState(standing),
    bids: bidderCount(lot.auction),
    bidlist: bidListOf(lot, mine),
    mine: myBidOf(lot, mine, now),
  };
}

/** Whether the lot's counters on the offering (cards, delisting) should be refreshed now. */
export function syncDue(lot: LotRecord, now: Date, extended: boolean): boolean {
  if (extended) return true;
  if ((lot.synced_bids === 0) !== (bidderCount(lot.auction) === 0)) return true;
  if (lot.synced_at === null) return true;
  return now.getTime() - Date.parse(lot.synced_at) >= AUCTION_SYNC_MS;
}

/** The offering's cards (market, lists) show an auction's counters at most this late. */
export const AUCTION_SYNC_MS = 30_000;

/**
 * Everyone may see and bid on a public lot; a private one its seller and invitees (those invited
 * when it opened are on the lot; later invitations are the offering's: `isInvited`).
 */
export async function mayBid(
  lot: LotRecord,
  callerId: string | null,
  isInvited: (offeringId: string, userId: string) => Promise<boolean>,
): Promise<boolean> {
  if (lot.access === 'public') return true;
  if (callerId === null) return false;
  if (callerId === lot.seller_id || lot.invited_ids.includes(callerId)) return true;
  return isInvited(lot.offering_id, callerId);
}

/**
 * The whole book of a contending lot: the bids in its book as they stand there (a bid that kept
 * its bidder in the book wrote the lot alone, and the stream may not have brought their entry up
 * to it yet), and every other bidder's standing bid from their entry (written with the lot that
 * left it out).
 */
export function mergedBook(
  book: readonly BookEntry[],
  entries: readonly Pick<BidderRecord, 'bidder_id' | 'standing'>[],
): BookEntry[] {
  const inBook = new Set(book.map((entry) => entry.bidder_id));
  return [
    ...book,
    ...entries.flatMap((entry) =>
      inBook.has(entry.bidder_id) || entry.standing === null ? [] : [entry.standing],
    ),
  ];
}
