import {
  AUCTION_LIMITS,
  incrementAt,
  placeBid,
  type AuctionState,
  type BidRefusal,
  type BookEntry,
} from '@shared/auction';
import type { AuctionView, MyBid } from '@shared/schemas/bids';

/**
 * The bid form's instant feedback: the auction rules of shared/auction.ts (the ones the server
 * applies) run on what the page knows of the lot. The others' secret maxima are the server's, so
 * the threshold is the lot's `minimBid`; everything else (amounts, the maximum, copies, one copy
 * per bidder, a rebid's copies and higher maximum, the end) is `placeBid`'s own decision.
 */

/** The form's fields, named as the bid/create body (and the `fields` of its refusals) name them. */
export type BidField = 'bidprice' | 'maxbid' | 'quantity';

export interface BidDraft {
  /** Per copy, minor units; NaN when the text is not an amount. */
  amount: number;
  /** The proxy maximum per copy, or null for none. */
  max: number | null;
  quantity: number;
}

export interface BidProblem {
  /** The field it belongs to, or null for the whole bid (the auction ended, not started). */
  field: BidField | null;
  code: BidRefusal;
}

const ME = 'me';

/** Whether the caller's bid is in the lot's book (a standing bid: winning or outbid). */
export function isStanding(view: AuctionView): boolean {
  return (
    view.phase === 'open' &&
    view.mine !== null &&
    (view.mine.status === 'active' || view.mine.status === 'outbid')
  );
}

/** The caller holds every copy they asked for: they may raise their maximum without a higher bid. */
export function holdsAll(view: AuctionView): boolean {
  const mine = view.mine;
  return (
    isStanding(view) && mine !== null && mine.status === 'active' && mine.copies === mine.quantity
  );
}

/**
 * The lot as far as the page knows it, for `placeBid`: the caller's own entry only, and a
 * threshold of 1 (the real one, `minimBid`, is checked apart). The caller's earlier visible
 * amount is not told (only their current price), so that rule is left to the server.
 */
function knownState(view: AuctionView): AuctionState {
  const mine = view.mine;
  const book: BookEntry[] =
    mine !== null && isStanding(view)
      ? [
          {
            bidder_id: ME,
            bidder_nick: mine.nick,
            amount: 1,
            max: mine.max,
            quantity: mine.quantity,
            seq: 1,
            placed_at: mine.created_at,
          },
        ]
      : [];
  return {
    copies: view.copies,
    min_price: 1,
    reserve: null,
    multi_copy: view.multi_copy,
    soft_close_ms: view.soft_close_minutes * 60_000,
    // A lot no longer open takes no bid, whatever its end says.
    end_at: view.phase === 'open' ? view.end_at : new Date(0).toISOString(),
    seq: 1,
    book,
  };
}

const FIELD_OF: Partial<Record<BidRefusal, BidField | null>> = {
  'market.bid.errors.ended': null,
  'market.bid.errors.not_started': null,
  'market.bid.errors.too_many_bidders': null,
  'market.bid.errors.quantity': 'quantity',
  'market.bid.errors.one_copy': 'quantity',
  'market.bid.errors.rebid_quantity': 'quantity',
  'market.bid.errors.max_below_amount': 'maxbid',
};

const isWhole = (value: number) =>
  Number.isSafeInteger(value) && value >= 1 && value <= AUCTION_LIMITS.maxBid;

/** What is wrong with the bid now, or null when the rules the page knows let it through. */
export function bidProblem(
  view: AuctionView,
  draft: BidDraft,
  now: Date,
  startAt?: string,
): BidProblem | null {
  if (draft.max !== null && !isWhole(draft.max) && isWhole(draft.amount)) {
    return { field: 'maxbid', code: 'market.bid.errors.amount' };
  }
  const outcome = placeBid(
    knownState(view),
    { bidder_id: ME, bidder_nick: view.mine?.nick ?? '', ...draft },
    now,
    startAt,
  );
  if (!outcome.ok) {
    const field = FIELD_OF[outcome.code];
    // A rebid that is not higher is about the maximum when one was given.
    if (outcome.code === 'market.bid.errors.not_higher') {
      return { field: draft.max === null ? 'bidprice' : 'maxbid', code: outcome.code };
    }
    return { field: field === undefined ? 'bidprice' : field, code: outcome.code };
  }
  if (!holdsAll(view) && draft.amount < view.minimBid) {
    return { field: 'bidprice', code: 'market.bid.errors.too_low' };
  }
  return null;
}

/** What the form proposes: an amount and, for a raise, a maximum above the caller's. */
export interface BidSuggestion {
  amount: number;
  max: number | null;
  /** The caller is winning all they asked for: a new bid raises their maximum. */
  raise: boolean;
}

/** The next maximum above `max` (one increment of its tier). */
const above = (max: number) => max + incrementAt(max);

export function suggestedBid(view: AuctionView): BidSuggestion {
  const mine: MyBid | null = view.mine;
  if (mine !== null && holdsAll(view)) {
    return { amount: Math.max(mine.amount, 1), max: above(mine.max), raise: true };
  }
  if (mine !== null && isStanding(view) && mine.max >= view.minimBid) {
    // Partly filled: a new bid needs a higher maximum than the one already standing.
    return { amount: above(mine.max), max: null, raise: false };
  }
  return { amount: view.minimBid, max: null, raise: false };
}

export { incrementAt };
