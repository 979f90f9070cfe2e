import * as z from 'zod';
import { ITEM_LIMITS, LISTING_LIMITS, PAGE_SIZE } from '../constants/limits';
import { CURRENCIES, FIAT_CURRENCIES } from '../money';
import { PRODUCT_TYPES, type ProductType } from '../switches';
import { itemImageSchema, NO_TERMS, productTypeSchema, type Violation } from './items';
import { nickSchema } from './profiles';

/**
 * Offerings (spec 000 §3 Offering, §4 validation/listing progress/delisting, §5 List item, §7
 * offering/* calls; issue 11): the list form's and `offering/create`'s one contract, the listing
 * rules as a pure function with an injected `now`, the market's filters, and the answers of the
 * market calls. Messages are error codes (i18n keys).
 */

export const OFFERING_TYPES = ['fixed', 'auction'] as const;
export type OfferingType = (typeof OFFERING_TYPES)[number];
export const PAYMENT_MODES = ['fullprice', 'deposit'] as const;
export const ACCESS_MODES = ['public', 'private'] as const;
/** Spec 000 §2 market categories (the spec's spelling, `experiencies`, is the stored value). */
export const CATEGORIES = [
  'art',
  'collectibles',
  'education',
  'events',
  'experiencies',
  'fashion',
  'gaming',
  'jewelry',
  'music',
  'membership',
  'sports',
  'travel',
] as const;
export type Category = (typeof CATEGORIES)[number];
/** Categories one offering may carry (ours: each one is a market index entry). */
export const MAX_CATEGORIES = 3;
/** Seller notes (ours). */
export const NOTES_MAX = 500;
/** Listing terms (ours; the item's own terms have no bound either). */
export const TERMS_MAX = 2000;
/** Users invited to one private offering (ours: one invitation write each). */
export const MAX_INVITED = 50;
/** The latest end date a listing may have (spec "the maximum date"; ours: one year ahead). */
export const MAX_LISTING_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;
/** A start time this far in the past is still "now" (the form's clock and the server's). */
export const START_SLACK_MS = 10 * 60 * 1000;
/** Amounts: at most 1,000,000 currency units per copy (ours: keeps totals safe integers). */
export const MAX_PRICE_MINOR = 100_000_000;

const currencySchema = z.enum(FIAT_CURRENCIES, { error: 'forms.validation.enum' });
const minorAmount = z
  .number({ error: 'forms.validation.required' })
  .int({ error: 'forms.validation.invalid' })
  .min(0, { error: 'forms.validation.too_small' })
  .max(MAX_PRICE_MINOR, { error: 'forms.validation.too_big' });
const ulid = z
  .string({ error: 'forms.validation.required' })
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, { error: 'forms.validation.invalid' });
/** Offering ids keep the spec's `oF` prefix (DESIGN §4): `oF` + a ULID. */
export const OFFERING_ID_PATTERN = /^oF[0-9A-HJKMNP-TV-Z]{26}$/;
export const offeringIdSchema = z
  .string({ error: 'forms.validation.required' })
  .regex(OFFERING_ID_PATTERN, { error: 'forms.validation.invalid' });
/** A nick as people type it (any case, spaces around): compared lower-case. */
const inviteNick = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .toLowerCase()
  .pipe(nickSchema);
const isoDate = z.iso.datetime({ offset: true, error: 'forms.validation.invalid' });

/** The list form and `POST users/{id}/offering/create` (spec 000 §3 Offering fields). */
export const listingContractSchema = z.object({
  item_id: ulid,
  type: z.enum(OFFERING_TYPES, { error: 'forms.validation.enum' }),
  copies: z
    .number({ error: 'forms.validation.required' })
    .int({ error: 'forms.validation.invalid' })
    .min(1, { error: 'forms.validation.too_small' })
    .max(ITEM_LIMITS.maxCopies, { error: 'forms.validation.too_big' }),
  currency: currencySchema,
  /** Fixed price, or an auction's minimum bid, per copy (minor units; ≥ 1 currency unit). */
  price: minorAmount,
  payment_mode: z.enum(PAYMENT_MODES, { error: 'forms.validation.enum' }),
  /** The deposit per copy when payment_mode is deposit (less than the price); else null. */
  deposit: minorAmount.nullable(),
  /** Auctions: a buy-now price per copy, or null for none. Fixed price: null. */
  buy_price: minorAmount.nullable(),
  /** Auctions: a hidden reserve per copy (above the minimum bid), or null for none. */
  reserve_price: minorAmount.nullable().default(null),
  /** Auctions: bids may ask for several copies; false: one copy per bidder. */
  multi_copy: z.boolean(),
  start_at: isoDate,
  end_at: isoDate,
  categories: z
    .array(z.enum(CATEGORIES, { error: 'forms.validation.enum' }))
    .min(1, { error: 'forms.validation.required' })
    .max(MAX_CATEGORIES, { error: 'forms.validation.too_big' }),
  notes: z.string().trim().max(NOTES_MAX, { error: 'forms.validation.too_big' }),
  terms: z
    .string({ error: 'forms.validation.required' })
    .trim()
    .min(1, { error: 'forms.validation.required' })
    .max(TERMS_MAX, { error: 'forms.validation.too_big' }),
  access: z.enum(ACCESS_MODES, { error: 'forms.validation.enum' }),
  /** Private offerings: the invited users' nicks (more with add-invitations). */
  invited: z.array(inviteNick).max(MAX_INVITED, { error: 'forms.validation.too_big' }),
  /** An existing collection of the caller (a new one is created first: token/createcollection). */
  collection_id: ulid.nullable(),
});
export type ListingContract = z.infer<typeof listingContractSchema>;

/** What the listing rules need to know besides the form (all of it read by the server). */
export interface ListingRuleContext {
  now: Date;
  product_type: ProductType;
  /** A ticket's expiry (ISO); null for other types. */
  ticket_expires_at: string | null;
  /** Copies of the item the caller owns that are free to list (available, no QR). */
  free_copies: number;
  /** Copies the caller owns that are tickets with a QR code (they cannot be listed). */
  qr_copies: number;
  /** The caller created the item. */
  is_creator: boolean;
  /** The item may be resold (spec: transferrable). */
  transferable: boolean;
}

/** One currency unit in minor units (1.00 of a two-decimals currency). */
export function minorUnit(currency: keyof typeof CURRENCIES): number {
  return 10 ** CURRENCIES[currency].decimals;
}

/**
 * The list-item rules of spec 000 §5 that tie fields together or need state, in the order a user
 * would fix them. Pure: the form runs it for instant feedback, the use case authoritatively.
 */
export function listingViolations(
  contract: ListingContract,
  context: ListingRuleContext,
): Violation[] {
  const out: Violation[] = [];
  const now = context.now.getTime();
  if (!context.is_creator && !context.transferable) {
    out.push({ field: 'item_id', code: 'market.list.errors.not_transferable' });
  }
  if (context.free_copies === 0 && context.qr_copies > 0) {
    out.push({ field: 'copies', code: 'market.list.errors.ticket_qr' });
  } else if (contract.copies > context.free_copies) {
    out.push({ field: 'copies', code: 'market.list.errors.copies_available' });
  }
  const unit = minorUnit(contract.currency);
  if (contract.price < unit * LISTING_LIMITS.minPriceUnits) {
    out.push({ field: 'price', code: 'market.list.validation.min_price' });
  }
  if (contract.payment_mode === 'deposit') {
    if (contract.deposit === null) {
      out.push({ field: 'deposit', code: 'forms.validation.required' });
    } else if (contract.deposit < 1 || contract.deposit >= contract.price) {
      out.push({ field: 'deposit', code: 'market.list.validation.deposit' });
    }
  } else if (contract.deposit !== null) {
    out.push({ field: 'deposit', code: 'market.list.validation.no_deposit' });
  }
  if (contract.type === 'fixed') {
    if (contract.buy_price !== null) {
      out.push({ field: 'buy_price', code: 'market.list.validation.buy_price_fixed' });
    }
    if (contract.multi_copy) {
      out.push({ field: 'multi_copy', code: 'market.list.validation.multi_copy_fixed' });
    }
  } else {
    if (contract.buy_price !== null && contract.buy_price <= contract.price) {
      out.push({ field: 'buy_price', code: 'market.list.validation.buy_price' });
    }
    if (contract.reserve_price !== null && contract.reserve_price <= contract.price) {
      out.push({ field: 'reserve_price', code: 'market.list.validation.reserve' });
    } else if (
      contract.reserve_price !== null &&
      contract.buy_price !== null &&
      contract.buy_price < contract.reserve_price
    ) {
      out.push({ field: 'buy_price', code: 'market.list.validation.buy_price_reserve' });
    }
  }
  if (contract.type === 'fixed' && contract.reserve_price !== null) {
    out.push({ field: 'reserve_price', code: 'market.list.validation.reserve_fixed' });
  }
  const start = Date.parse(contract.start_at);
  const end = Date.parse(contract.end_at);
  if (start < now - START_SLACK_MS) {
    out.push({ field: 'start_at', code: 'market.list.validation.start_past' });
  }
  if (end < now + LISTING_LIMITS.minExpiryAheadMs) {
    out.push({ field: 'end_at', code: 'market.list.validation.end_soon' });
  } else if (end > now + MAX_LISTING_AHEAD_MS) {
    out.push({ field: 'end_at', code: 'market.list.validation.end_max' });
  } else if (end <= start) {
    out.push({ field: 'end_at', code: 'market.list.validation.end_before_start' });
  } else if (context.product_type === 'ticket' && context.ticket_expires_at !== null) {
    const gap =
      contract.type === 'auction'
        ? LISTING_LIMITS.ticketEndGapAuctionMs
        : LISTING_LIMITS.ticketEndGapFixedMs;
    if (end > Date.parse(context.ticket_expires_at) - gap) {
      out.push({
        field: 'end_at',
        code:
          contract.type === 'auction'
            ? 'market.list.validation.ticket_gap_auction'
            : 'market.list.validation.ticket_gap_fixed',
      });
    }
  }
  if (contract.access === 'public' && contract.invited.length > 0) {
    out.push({ field: 'invited', code: 'market.list.validation.invited_public' });
  }
  if (new Set(contract.categories).size !== contract.categories.length) {
    out.push({ field: 'categories', code: 'forms.validation.invalid' });
  }
  return out;
}

/** "None" in any case is the spec's way to give no terms. */
export function normaliseListingTerms(terms: string): string {
  return terms.trim().toLowerCase() === NO_TERMS.toLowerCase() ? NO_TERMS : terms.trim();
}

/** The body of `offering/create`: the contract with the rules that need no state. */
export const createOfferingBodySchema = z.object({
  offering: listingContractSchema.transform((contract) => ({
    ...contract,
    terms: normaliseListingTerms(contract.terms),
    invited: [...new Set(contract.invited.map((nick) => nick.toLowerCase()))],
  })),
});
export type CreateOfferingBody = z.infer<typeof createOfferingBodySchema>;

// ---------------------------------------------------------------------------------------------
// Listing progress (spec 000 §4): the workflow's states and the web's percentages.

/**
 * Where a listing's creation is: the spec's progress states, plus `confirm` (fewer copies were
 * reserved than asked: the confirm-listing modal), `error` and `cancelled`.
 */
export const LISTING_STEPS = [
  'loading',
  'preparing',
  'confirm',
  'listing',
  'publishing',
  'done',
  'error',
  'cancelled',
] as const;
export type ListingStep = (typeof LISTING_STEPS)[number];

/** Spec 000 §4 listing progress: loading 5, preparing 5 + done/total × 40, …, done 100. */
export function listingPercent(step: string, done: number, total: number): number {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  switch (step) {
    case 'loading':
      return 5;
    case 'preparing':
      return Math.round(5 + ratio * 40);
    case 'confirm':
      return 45;
    case 'uploading':
      return 45;
    case 'listing':
      return 48;
    case 'checking':
      return Math.round(50 + ratio * 40);
    case 'publishing':
      return 90;
    case 'done':
      return 100;
    default:
      return 0;
  }
}

/** `offering/create/status` and the live `offering.progress` event. */
export const listingProgressSchema = z.object({
  offeringId: z.string(),
  item_id: z.string(),
  step: z.enum(LISTING_STEPS),
  /** Copies reserved so far / asked for. */
  done: z.number().int(),
  total: z.number().int(),
  percent: z.number().int(),
  /** The error code when step is error. */
  error: z.string().nullable(),
});
export type ListingProgress = z.infer<typeof listingProgressSchema>;

export const offeringBodySchema = z.object({ offeringId: offeringIdSchema });

// ---------------------------------------------------------------------------------------------
// Offering statuses (spec 000 §4) and what the market shows.

/**
 * An offering's lifecycle: being created (`creating`, `confirm`), waiting for support
 * (`pending`), refused (`not_validated`), on the market (`validated`), taken off by its seller
 * (`delisting` → `delisted`), ended (`expired`: time ran out; `sold`: no copy left), or abandoned
 * (`cancelled`, `error`).
 */
export const OFFERING_STATUSES = [
  'creating',
  'confirm',
  'pending',
  'not_validated',
  'validated',
  'delisting',
  'delisted',
  'expired',
  'sold',
  'cancelled',
  'error',
] as const;
export type OfferingStatus = (typeof OFFERING_STATUSES)[number];

/** Spec 000 §4 token display status, as the item page and cards show an offering. */
export const DISPLAY_STATUSES = [
  'buy_now',
  'auction',
  'available',
  'processing',
  'pending',
  'not_validated',
  'delisting',
  'expired',
  'no_transferrable',
  'others',
] as const;
export type DisplayStatus = (typeof DISPLAY_STATUSES)[number];

/** Spec 000 §4 auction display. */
export const AUCTION_DISPLAYS = ['open', 'nobids', 'closed'] as const;

export const offeringCardSchema = z.object({
  id: z.string(),
  type: z.enum(OFFERING_TYPES),
  status: z.enum(OFFERING_STATUSES),
  display_status: z.enum(DISPLAY_STATUSES),
  auction_display: z.enum(AUCTION_DISPLAYS).nullable(),
  access: z.enum(ACCESS_MODES),
  item: z.object({
    id: z.string(),
    title: z.string(),
    product_type: productTypeSchema,
    image: itemImageSchema,
  }),
  seller: z.object({ id: z.string(), nick: z.string() }),
  currency: z.enum(FIAT_CURRENCIES),
  /** Fixed price, or the auction's minimum bid, per copy (minor units). */
  price: z.number().int(),
  /** Auctions: the highest registered bid per copy, or null. */
  highest_bid: z.number().int().nullable(),
  buy_price: z.number().int().nullable(),
  copies: z.number().int(),
  copies_left: z.number().int(),
  categories: z.array(z.enum(CATEGORIES)),
  collection_id: z.string().nullable(),
  start_at: z.string(),
  end_at: z.string(),
  published_at: z.string().nullable(),
  created_at: z.string(),
});
export type OfferingCard = z.infer<typeof offeringCardSchema>;

export const offeringDetailSchema = offeringCardSchema.extend({
  payment_mode: z.enum(PAYMENT_MODES),
  deposit: z.number().int().nullable(),
  multi_copy: z.boolean(),
  notes: z.string(),
  terms: z.string(),
  bids: z.number().int(),
  /** Auctions: the hidden reserve per copy, shown to its seller only (null for others). */
  reserve_price: z.number().int().nullable(),
  /** Why support refused it (not_validated); shown to its seller. */
  reason: z.string().nullable(),
  /** The seller may delist it now (spec 000 §4: on sale, or an auction without bids). */
  can_delist: z.boolean(),
  /** The caller is the seller. */
  is_seller: z.boolean(),
  /** The caller's favourite. */
  favorite: z.boolean(),
  /** Invited users (seller only; [] for others). */
  invited: z.array(z.object({ id: z.string(), nick: z.string() })),
  item: offeringCardSchema.shape.item.extend({
    description: z.string(),
    images: z.array(itemImageSchema),
    issuer_nick: z.string(),
    copies: z.number().int(),
  }),
});
export type OfferingDetail = z.infer<typeof offeringDetailSchema>;

export const offeringPageSchema = z.object({
  items: z.array(offeringCardSchema),
  nextCursor: z.string().nullable(),
});
export type OfferingPage = z.infer<typeof offeringPageSchema>;

/** Market filters (spec 000 §2). `types` empty = any type. */
export const OFFER_FILTERS = ['any', 'auction', 'buy'] as const;
export const MY_OFFERING_FILTERS = ['any', 'active', 'sold', 'closed'] as const;
export type MyOfferingFilter = (typeof MY_OFFERING_FILTERS)[number];

const cursorSchema = z
  .string()
  .min(1, { error: 'forms.validation.cursor' })
  .max(2048, { error: 'forms.validation.cursor' });

/**
 * `POST users/{id|-}/offering/getofferings` (spec: issuernick, collectionid, ownernick, status,
 * last): the market (types, category, offer), a collection's offerings (collectionid), an item's
 * offerings (item_id), a seller's closed or no-bid offerings (ownernick + status closed: the user
 * card's carousel), or the offerings the caller is invited to (invited). `last` is the cursor.
 */
export const getOfferingsBodySchema = z.object({
  types: z
    .array(z.enum(PRODUCT_TYPES, { error: 'forms.validation.enum' }))
    .max(PRODUCT_TYPES.length)
    .default([]),
  category: z.enum(['any', ...CATEGORIES], { error: 'forms.validation.enum' }).default('any'),
  offer: z.enum(OFFER_FILTERS, { error: 'forms.validation.enum' }).default('any'),
  collectionid: ulid.optional(),
  item_id: ulid.optional(),
  ownernick: nickSchema.optional(),
  status: z.enum(['active', 'closed'], { error: 'forms.validation.enum' }).optional(),
  invited: z.boolean().optional(),
  limit: z
    .number()
    .int()
    .refine((value) => value === PAGE_SIZE.large || value === PAGE_SIZE.small, {
      error: 'forms.validation.invalid',
    })
    .default(PAGE_SIZE.large),
  last: cursorSchema.optional(),
});
export type GetOfferingsBody = z.infer<typeof getOfferingsBodySchema>;

export const getMyOfferingsBodySchema = z.object({
  status: z.enum(MY_OFFERING_FILTERS, { error: 'forms.validation.enum' }).default('any'),
  last: cursorSchema.optional(),
});

export const addInvitationsBodySchema = z.object({
  invitedIds: z
    .array(inviteNick)
    .min(1, { error: 'forms.validation.required' })
    .max(MAX_INVITED, { error: 'forms.validation.too_big' }),
});
export const invitationsSchema = z.object({
  invited: z.array(z.object({ id: z.string(), nick: z.string() })),
});

export const ownerCollectionsBodySchema = z.object({ nick: nickSchema });

/** Support's decision on a pending offering. */
export const REJECT_REASON_MAX = 500;
export const validateOfferingBodySchema = z.discriminatedUnion(
  'decision',
  [
    z.object({ decision: z.literal('approve') }),
    z.object({
      decision: z.literal('reject'),
      reason: z
        .string({ error: 'forms.validation.required' })
        .trim()
        .min(1, { error: 'forms.validation.required' })
        .max(REJECT_REASON_MAX, { error: 'forms.validation.too_big' }),
    }),
  ],
  { error: 'forms.validation.enum' },
);
export type ValidateOfferingBody = z.infer<typeof validateOfferingBodySchema>;

/** The admin queue: pending offerings, oldest first, with what support judges. */
export const pendingOfferingSchema = offeringDetailSchema.extend({
  submitted_at: z.string(),
  item: offeringDetailSchema.shape.item.extend({ legal_terms: z.string() }),
});
export const pendingPageSchema = z.object({
  items: z.array(pendingOfferingSchema),
  nextCursor: z.string().nullable(),
});
export type PendingOffering = z.infer<typeof pendingOfferingSchema>;

export const favoriteSchema = z.object({ offeringId: z.string(), favorite: z.boolean() });

const pathId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'forms.validation.invalid' });
export const offeringsUserPathSchema = z.object({ id: pathId });
export const offeringPathSchema = z.object({ id: pathId, offeringId: offeringIdSchema });
export const adminOfferingPathSchema = z.object({ offeringId: offeringIdSchema });
export const pageQuerySchema = z.object({ cursor: cursorSchema.optional() });

/**
 * `GET users/{id}/offering/listing-context/{itemId}`: what the list form needs to run the listing
 * rules for this item and caller (the same facts the server checks).
 */
export const listingContextSchema = z.object({
  item: z.object({
    id: z.string(),
    title: z.string(),
    product_type: productTypeSchema,
    image: itemImageSchema,
    copies: z.number().int(),
    transferable: z.boolean(),
    ticket_expires_at: z.string().nullable(),
    issuer_id: z.string(),
  }),
  free_copies: z.number().int(),
  qr_copies: z.number().int(),
  is_creator: z.boolean(),
  /** Seller onboarding complete (000 §6 listing guard). */
  onboarded: z.boolean(),
});
export type ListingContext = z.infer<typeof listingContextSchema>;
export const listingContextPathSchema = z.object({
  id: pathId,
  itemId: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, { error: 'forms.validation.invalid' }),
});
