/**
 * Business constants and limits of spec 000 §9 and 001 §9. Durations in milliseconds, sizes in
 * bytes, lengths in characters. Values the spec leaves unnamed are not invented here.
 */
const MB = 1024 * 1024;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const PAGE_SIZE = { large: 50, small: 10 } as const;

export const ITEM_LIMITS = {
  maxCopies: 200,
  titleMax: 50,
  descriptionMax: 300,
  imageMaxBytes: 8 * MB,
  maxImages: 10,
  attachedFileMaxBytes: 20 * MB,
  objectNameMax: 20,
} as const;

export const LISTING_LIMITS = {
  minExpiryAheadMs: HOUR,
  ticketEndGapFixedMs: HOUR,
  ticketEndGapAuctionMs: 2 * DAY,
  /** Offering proposal expiry: offering end + 48 h. */
  proposalExpiryAfterEndMs: 48 * HOUR,
  /** Conditional transfer default expiry: 2 days (172800 s). */
  conditionalTransferExpiryMs: 172_800_000,
  /** Minimum price: 1 currency unit. */
  minPriceUnits: 1,
} as const;

/** Sale fee, in basis points (2 %). */
export const SALE_FEE_BPS = 200;

/** Commission (royalty, beneficiary share) bounds on the percent scale. */
export const COMMISSION_LIMITS = { min: 10, max: 50, total: 100 } as const;

export const TIMINGS = {
  productBookingMs: 5 * MINUTE,
  offeringStatusPollMs: 50_000,
  offeringStatusMaxNotFound: 10,
  auctionEndRemindersMs: [DAY, 6 * HOUR, 10 * MINUTE],
  toastMs: 10_000,
  pingMs: 120_000,
  socketReconnectMs: 1_000,
  bellRingMs: 10_000,
  balancePollMs: 30_000,
  balanceRevealMs: 2_000,
  fetchMinDelayMs: 200,
  phonePendingMessageMs: 5_000,
  connectionRequestTimeoutMs: 1_209_600_000,
  chunkReloadGuardMs: 60_000,
} as const;

export const STORAGE_LIMITS = {
  /** Max object block (spec 000 §9) and overlay (001 §9 for users who do not pay on-chain). */
  maxObjectBlockBytes: 67_108_864,
  maxOverlayBytes: 524_288_000,
} as const;

export const PROFILE_LIMITS = {
  nickMin: 3,
  nickMax: 64,
  passwordMin: 6,
  passwordMax: 32,
  pinLength: 4,
  avatarMaxBytes: 8_388_608,
  coverMaxBytes: 2 * MB,
  userTitleMax: 25,
  companySloganMax: 60,
  objectTitleMax: 20,
  summaryMax: 500,
  signupSummaryMax: 255,
  connectMessageMax: 140,
  coverHeightPx: 360,
} as const;

/**
 * Login pins (spec 001 §9: 4 digits; issue: 10 min, 5 tries, resend cooldown). Failed answers are
 * throttled by functions/accounts/login-throttle.ts.
 */
export const PIN_LIMITS = {
  validityMs: 10 * MINUTE,
  maxTries: 5,
  resendCooldownMs: MINUTE,
} as const;

export const PAYMENT_LIMITS = {
  /** In currency units, as the spec states them. */
  maxPayment: 1000,
  minPaymentFiat: 0.1,
  minPaymentSats: 1000,
  minSend: 0.1,
  minContribution: 1,
} as const;

export const UI = {
  breakpoints: { sm: 768, md: 960, lg: 1265 },
  topBarHeight: 50,
  topBarHeightFromSm: 70,
  sideBarWidth: 210,
  modalWidths: { wide: 1000, profile: 615, medium: 600, narrow: 500 },
  notificationDialogWidth: 426,
  notificationSkeletonRows: 8,
  carouselPerPage: 3,
  socialDescriptionMax: 150,
  socialImageSize: 400,
} as const;

export const SATS_PER_COIN = 100_000_000;
export const COOKIE_LIFETIME_DAYS = 365;
export const REPORT_REASONS = ['fraudulent', 'identity_fraud', 'abuse', 'spam'] as const;

/** Auctions (issue 13; the rules: shared/auction.ts, docs/auctions.md). */
export const AUCTION_LIMITS = {
  /** The largest bid per copy (minor units): 10,000,000.00. */
  maxBid: 1_000_000_000,
  /** Default soft-close window (an operator setting): 5 minutes. */
  softCloseMs: 5 * 60_000,
  /** A retraction is free while more than this remains before the end. */
  retractFreeMs: 12 * 3_600_000,
  /** Within the last 12 hours, only a bid placed less than this ago may be retracted. */
  retractRecentMs: 3_600_000,
  /** Spec 000 §9: bids expire 2880 minutes after the offering's end (the payment window). */
  bidExpiryMs: 2_880 * 60_000,
  /**
   * Bidders one lot takes. While open a lot stores its leading bids alone, but at its close it
   * takes every bid back (about 0.8 KB plus 120 bytes per bidder; their cards and addresses are
   * on their own entries): 1,000 bidders make about 125 KB, within DynamoDB's 400 KB per item.
   */
  maxBidders: 1_000,
} as const;
