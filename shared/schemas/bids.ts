import * as z from 'zod';
import { FIAT_CURRENCIES } from '../money';
import { AUCTION_LIMITS, ITEM_LIMITS } from '../constants/limits';
import { offeringCardSchema, OFFERING_ID_PATTERN } from './offerings';
import { postalAddressSchema } from './orders';

/**
 * Bids and auctions (spec 000 §3 Bid, §4 bid status and auction display, §5 bid rules, §7
 * bid/create, bid/cancel, bid/getbyofferingid, offering/getassignedtokens,
 * offering/getmybettedofferings; issue 13). The rules themselves are shared/auction.ts.
 */

/** Spec 000 §4 bid status ("substitute winner" spelled with an underscore on the wire). */
export const BID_STATUSES = [
  'active',
  'outbid',
  'winner',
  'notwinner',
  'substitute',
  'substitute_winner',
  'expired',
  'cancelled',
] as const;
export type BidStatus = (typeof BID_STATUSES)[number];

/** Where the lot is: bidding, closing (winners being processed: the spec's `nobids`), closed. */
export const AUCTION_PHASES = ['open', 'closing', 'closed'] as const;
export type AuctionPhase = (typeof AUCTION_PHASES)[number];

/** The hidden reserve as bidders see it. */
export const RESERVE_STATES = ['none', 'met', 'not_met'] as const;
export type ReserveState = (typeof RESERVE_STATES)[number];

const offeringId = z
  .string({ error: 'forms.validation.required' })
  .regex(OFFERING_ID_PATTERN, { error: 'forms.validation.invalid' });
const perCopy = z
  .number({ error: 'forms.validation.required' })
  .int({ error: 'market.bid.errors.amount' })
  .min(1, { error: 'market.bid.errors.amount' })
  .max(AUCTION_LIMITS.maxBid, { error: 'market.bid.errors.amount' });

/**
 * `POST users/{id}/bid/create` (spec: offeringid, bidprice, currency, quantity, …). `bidprice` is
 * the visible bid per copy, `maxbid` the optional secret proxy maximum per copy (minor units).
 * `payment_method` names the saved card backing the bid (default: the default card); it replaces
 * the spec's wallet `paymentauths`. The seller (destinationuser*) and the expiry
 * (expirationdatestamp) are the server's to decide.
 */
export const createBidBodySchema = z.object({
  offeringid: offeringId,
  bidprice: perCopy,
  maxbid: perCopy.nullable().default(null),
  currency: z.enum(FIAT_CURRENCIES, { error: 'forms.validation.enum' }),
  quantity: z
    .number({ error: 'forms.validation.required' })
    .int({ error: 'market.bid.errors.quantity' })
    .min(1, { error: 'market.bid.errors.quantity' })
    .max(ITEM_LIMITS.maxCopies, { error: 'market.bid.errors.quantity' }),
  payment_method: z
    .string()
    .regex(/^pm_[A-Za-z0-9_]{1,200}$/, { error: 'forms.validation.invalid' })
    .nullable()
    .default(null),
  /**
   * Spec 000 §5: an auction order must have a postal address. Required with the first bid on an
   * item that is delivered (kept for the bidder's later bids; a new one replaces it).
   */
  postaladdress: postalAddressSchema.nullish().transform((value) => value ?? null),
});
export type CreateBidBody = z.input<typeof createBidBodySchema>;

export const bidOfferingPathSchema = z.object({
  id: z.string().min(1).max(64),
  offeringid: offeringId,
});

/** One bidder's standing in the lot's bid list (public: nick, visible bid, copies, status). */
export const bidEntrySchema = z.object({
  /** The bidder's entry id in this lot (stable across rebids). */
  bidid: z.string(),
  /** The spec's destinationusernick: who bid. */
  nick: z.string(),
  /** The visible bid per copy: a winner's current price, else the highest they bid. */
  amount: z.number().int(),
  quantity: z.number().int(),
  /** Copies this bid holds now (open) or won (closed). */
  copies: z.number().int(),
  status: z.enum(BID_STATUSES),
  /** When the bidder last bid (ISO). */
  created_at: z.string(),
});
export type BidEntry = z.infer<typeof bidEntrySchema>;

/** The caller's own bid on the lot (with what only they see: their maximum and card). */
export const myBidSchema = bidEntrySchema.extend({
  /** The caller's secret maximum per copy. */
  max: z.number().int(),
  /** What they pay per copy if the lot closed now (0 while not winning). */
  price: z.number().int(),
  /** The card backing the bid. */
  card: z.object({ id: z.string(), brand: z.string(), last4: z.string() }).nullable(),
  /** The caller may retract it now (eBay's rule: docs/auctions.md). */
  can_cancel: z.boolean(),
  /** The order made for the copies this bid won or was offered (winner, substitute), if any. */
  order_id: z.string().nullable(),
  /** Until when that order may be paid (ISO), if any. */
  pay_by: z.string().nullable(),
});
export type MyBid = z.infer<typeof myBidSchema>;

/**
 * `GET users/{id|-}/bid/getbyofferingid/{offeringid}` and the answer of bid/create and bid/cancel:
 * the lot as bidders see it (spec Bid: bidlist, highestBid, minimBid, expirationdatestamp).
 */
export const auctionViewSchema = z.object({
  offeringid: z.string(),
  currency: z.enum(FIAT_CURRENCIES),
  phase: z.enum(AUCTION_PHASES),
  /** The current end (ISO): soft close moves it. */
  end_at: z.string(),
  /** The original end, to tell an extended auction (ISO). */
  scheduled_end_at: z.string(),
  /** Minutes of the soft-close window. */
  soft_close_minutes: z.number().int(),
  /** Spec 000 §9: end + 2880 minutes. */
  expirationdatestamp: z.string(),
  copies: z.number().int(),
  multi_copy: z.boolean(),
  /** The offering's minimum bid per copy. */
  minimum: z.number().int(),
  /** The smallest bid per copy that may be placed now (spec minimBid). */
  minimBid: z.number().int(),
  /**
   * The highest current price per copy among the leading bids (below a reserve not met too), or
   * null without bids (spec highestBid).
   */
  highestBid: z.number().int().nullable(),
  reserve: z.enum(RESERVE_STATES),
  /** Bidders with a standing bid. */
  bids: z.number().int(),
  bidlist: z.array(bidEntrySchema),
  mine: myBidSchema.nullable(),
});
export type AuctionView = z.infer<typeof auctionViewSchema>;

export const MY_BIDS_FILTERS = ['any', 'active', 'closed'] as const;
export type MyBidsFilter = (typeof MY_BIDS_FILTERS)[number];

/** `POST users/{id}/offering/getmybettedofferings` (spec: status, last). */
export const myBidsBodySchema = z.object({
  status: z.enum(MY_BIDS_FILTERS, { error: 'forms.validation.enum' }).default('any'),
  last: z
    .string()
    .min(1, { error: 'forms.validation.cursor' })
    .max(2048, { error: 'forms.validation.cursor' })
    .nullable()
    .default(null),
});

export const myBidsPageSchema = z.object({
  items: z.array(
    z.object({
      offering: offeringCardSchema,
      bid: myBidSchema,
      phase: z.enum(AUCTION_PHASES),
      end_at: z.string(),
      highestBid: z.number().int().nullable(),
      /** The lot's hidden reserve as bidders see it (a leading bid below it would not win). */
      reserve: z.enum(RESERVE_STATES),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export type MyBidsPage = z.infer<typeof myBidsPageSchema>;

/** `POST users/{id}/offering/getassignedtokens` (spec: offeringid): the copies the caller won. */
export const assignedTokensBodySchema = z.object({ offeringid: offeringId });
export const assignedTokensSchema = z.object({
  offeringid: z.string(),
  tokens: z.array(
    z.object({
      copy_id: z.string(),
      item_id: z.string(),
      /** The copy's serial number. */
      index: z.number().int(),
      order_id: z.string(),
      /** The round the copy was offered in: winner or substitute (spec Order assignround). */
      assignround: z.enum(['winner', 'substitute']),
      price: z.number().int(),
      /** Paid and theirs, or still to pay by `pay_by`. */
      paid: z.boolean(),
      pay_by: z.string().nullable(),
      /**
       * What the copy's order still owes once paid for (minor units, for all its copies): a
       * deposit auction's balance, charged when the seller is ready; 0 when paid in full.
       */
      balance_due: z.number().int(),
    }),
  ),
});
export type AssignedTokens = z.infer<typeof assignedTokensSchema>;
