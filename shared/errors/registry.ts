/**
 * The error-code registry. Each code is a stable string that is also the web's i18n key (its English
 * text lives in web/src/locales/en.json under the same key), mapped to a kind and an HTTP status.
 * A test checks that every code has an English text.
 */
export const ERROR_KINDS = {
  invalid: 400,
  unauthenticated: 401,
  payment: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unexpected: 500,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

export const ERROR_CODES = {
  // Generic, used by every call.
  not_found: 'not_found',
  invalid_json: 'invalid',
  invalid_request: 'invalid',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  rate_limited: 'rate_limited',
  payload_too_large: 'payload_too_large',
  unexpected: 'unexpected',
  unavailable: 'unavailable',
  // Field-level validation codes (zod issue messages), shown under the field.
  'forms.validation.required': 'invalid',
  'forms.validation.invalid': 'invalid',
  'forms.validation.too_small': 'invalid',
  'forms.validation.too_big': 'invalid',
  'forms.validation.cursor': 'invalid',
  'forms.validation.enum': 'invalid',
  // Sign-up fields (spec 001 §5, §8: form errors for e-mail, phone, username).
  'forms.validation.email': 'invalid',
  'forms.validation.phone': 'invalid',
  'forms.validation.terms': 'invalid',
  'forms.validation.taken.nick': 'conflict',
  'forms.validation.taken.email': 'conflict',
  'forms.validation.taken.phone': 'conflict',
  // Users (spec 001 §8).
  'users.errors.not_found': 'not_found',
  // Accounts: sign-up and login (spec 001 §8). A 409 of sign-up names the taken fields.
  'users.errors.taken': 'conflict',
  'idempotency.key_reused': 'conflict',
  // The first request with this Idempotency-Key is still running (core/answers.ts).
  'idempotency.in_progress': 'conflict',
  'login.errors.401': 'unauthenticated',
  'login.errors.403': 'forbidden',
  'login.errors.500': 'unexpected',
  // Too many failed login pins: the message carries the wait (login.errors.wait:<seconds>).
  'login.errors.wait': 'rate_limited',
  // Password login (passwordLogin switch; spec 001 §5, §7 password/*).
  'forms.validation.password': 'invalid',
  'forms.validation.password_mismatch': 'invalid',
  'password.errors.token_invalid': 'invalid',
  // Sessions and admins (issue 3 items 4, 11): an admin cannot block their own account.
  'admin.errors.self_block': 'conflict',
  // Follows (spec 001 §7 rels/*).
  'follows.errors.self': 'conflict',
  // Addresses (spec 001 §3, §5): field code for the country, 20 per user, unknown address.
  'forms.validation.country': 'invalid',
  'addresses.errors.limit': 'invalid',
  'addresses.errors.not_found': 'not_found',
  // Profiles (spec 001 §5, §8): edit-profile form, video link, profile images.
  'account.edit_profile.errors.validation': 'invalid',
  'account.edit_profile.errors.uploading': 'invalid',
  'forms.validation.link': 'invalid',
  'forms.validation.user_type': 'invalid',
  'forms.validation.image.size': 'invalid',
  'forms.validation.image.type': 'invalid',
  // Create item (spec 000 §5, §8 Create; issue 4).
  'market.create_product.errors.required': 'invalid',
  'market.create_product.errors.one_file': 'invalid',
  'market.create_product.errors.forbidden': 'forbidden',
  'market.create_product.errors.image_upload': 'invalid',
  'market.create_product.errors.mint.create': 'unavailable',
  'market.create_product.errors.mint.register': 'unavailable',
  'market.create_product.errors.mint.generic': 'unavailable',
  'market.create_product.errors.object': 'unavailable',
  'market.create_product.errors.limit': 'forbidden',
  'market.create_product.errors.store': 'unavailable',
  'market.create_product.errors.chunks': 'unavailable',
  'market.create_product.errors.done': 'conflict',
  'market.create_product.validation.symbol': 'invalid',
  'market.create_product.validation.countries': 'invalid',
  'market.create_product.validation.commission.min': 'invalid',
  'market.create_product.validation.commission.max': 'invalid',
  'market.create_product.validation.image.main': 'invalid',
  'market.create_product.validation.image.limit': 'invalid',
  'market.create_product.validation.shipping': 'invalid',
  'market.create_product.validation.no_shipping': 'invalid',
  'market.create_product.validation.file_required': 'invalid',
  'market.create_product.validation.ticket_required': 'invalid',
  'market.create_product.validation.no_ticket': 'invalid',
  'market.create_product.validation.royalty_physical': 'invalid',
  'market.create_product.validation.royalty_not_transferable': 'invalid',
  // Collections (spec 000 §8 List: collection already exists).
  'market.list.errors.collection_exists': 'conflict',
  'market.collection.errors.not_found': 'not_found',
  // Listing and the market (spec 000 §8 List errors, 'Error get offerings'; issue 11).
  'market.list.errors.required': 'invalid',
  'market.list.errors.funds': 'payment',
  'market.list.errors.generic': 'unavailable',
  'market.list.errors.conditionals': 'conflict',
  'market.list.errors.cancelled': 'conflict',
  'market.list.errors.collection_image': 'invalid',
  'market.list.errors.rejecting': 'unavailable',
  'market.list.errors.copy_conflict': 'conflict',
  'market.list.errors.not_found': 'not_found',
  'market.list.errors.not_onboarded': 'forbidden',
  'market.list.errors.not_owner': 'forbidden',
  'market.list.errors.not_transferable': 'forbidden',
  'market.list.errors.ticket_qr': 'invalid',
  'market.list.errors.copies_available': 'invalid',
  'market.list.errors.not_confirmable': 'conflict',
  'market.list.validation.min_price': 'invalid',
  'market.list.validation.deposit': 'invalid',
  'market.list.validation.no_deposit': 'invalid',
  'market.list.validation.buy_price_fixed': 'invalid',
  'market.list.validation.reserve': 'invalid',
  'market.list.validation.reserve_fixed': 'invalid',
  'market.list.validation.buy_price_reserve': 'invalid',
  'market.list.validation.multi_copy_fixed': 'invalid',
  'market.list.validation.buy_price': 'invalid',
  'market.list.validation.start_past': 'invalid',
  'market.list.validation.end_soon': 'invalid',
  'market.list.validation.end_max': 'invalid',
  'market.list.validation.end_before_start': 'invalid',
  'market.list.validation.ticket_gap_auction': 'invalid',
  'market.list.validation.ticket_gap_fixed': 'invalid',
  'market.list.validation.invited_public': 'invalid',
  'market.errors.offerings': 'unavailable',
  'market.offering.errors.not_found': 'not_found',
  'market.offering.errors.not_pending': 'conflict',
  'market.offering.errors.not_delistable': 'conflict',
  'market.offering.errors.has_bids': 'conflict',
  'market.offering.errors.not_private': 'conflict',
  'market.offering.errors.ended': 'conflict',
  'market.offering.errors.too_many_invited': 'invalid',
  'market.favorites.errors.verify': 'forbidden',
  // Seller onboarding with Stripe Connect (spec 001 §8 Onboarding).
  'onboarding.errors.invalid_country': 'invalid',
  'onboarding.errors.not_onboarded': 'not_found',
  'onboarding.errors.not_complete': 'conflict',
  'onboarding.errors.email_in_use': 'conflict',
  'onboarding.errors.phone_in_use': 'conflict',
  'onboarding.errors.generic': 'unavailable',
  // Saved cards and the card provider (spec 000 §8 Checkout: customer, setup intent errors).
  'checkout.errors.customer': 'unavailable',
  'checkout.errors.setup_intent': 'unavailable',
  'payments.errors.card_not_found': 'not_found',
  'payments.errors.provider': 'unavailable',
  'payments.errors.webhook_signature': 'invalid',
  // Buying: booking and checkout (spec 000 §8 Buy, Checkout, Funds; issue 12).
  'market.buy.errors.generic': 'unexpected',
  'market.buy.errors.card_provider': 'unavailable',
  'market.buy.errors.popup_blocked': 'invalid',
  'market.buy.errors.booked': 'conflict',
  'market.buy.errors.creator': 'forbidden',
  'market.buy.errors.own_offering': 'forbidden',
  'market.buy.errors.not_on_sale': 'conflict',
  'market.buy.errors.quantity': 'invalid',
  'market.buy.errors.one_copy': 'invalid',
  'market.buy.errors.one_line': 'invalid',
  'market.buy.errors.address_required': 'invalid',
  'market.buy.errors.country': 'invalid',
  'market.buy.errors.auction_bids': 'conflict',
  // Bidding (spec 000 §8 Bid, §5 bid rules; issue 13). Texts: web/src/locales/en.json.
  'market.bid.errors.generic': 'unavailable',
  'market.bid.errors.beaten': 'conflict',
  'market.bid.errors.payments': 'payment',
  'market.bid.errors.no_card': 'payment',
  'market.bid.errors.load': 'unavailable',
  'market.bid.errors.not_auction': 'conflict',
  'market.bid.errors.own_offering': 'forbidden',
  'market.bid.errors.creator': 'forbidden',
  'market.bid.errors.currency': 'invalid',
  'market.bid.errors.ended': 'conflict',
  'market.bid.errors.not_started': 'conflict',
  'market.bid.errors.amount': 'invalid',
  'market.bid.errors.too_low': 'invalid',
  'market.bid.errors.max_below_amount': 'invalid',
  'market.bid.errors.quantity': 'invalid',
  'market.bid.errors.one_copy': 'invalid',
  'market.bid.errors.rebid_quantity': 'invalid',
  'market.bid.errors.not_higher': 'invalid',
  'market.bid.errors.too_many_bidders': 'conflict',
  'market.bid.errors.no_bid': 'not_found',
  'market.bid.errors.retract_closed': 'conflict',
  'checkout.errors.paying': 'payment',
  'checkout.errors.preorder': 'unavailable',
  'checkout.errors.payment_submit': 'unavailable',
  'checkout.errors.payment_intent': 'unavailable',
  'checkout.errors.order_expired': 'conflict',
  'checkout.errors.invalid_honoring': 'conflict',
  'checkout.errors.no_preorder': 'not_found',
  'checkout.errors.card_declined': 'payment',
  'checkout.errors.authentication_required': 'payment',
  'checkout.errors.no_card': 'conflict',
  'market.errors.transactions': 'unavailable',
  'funds.errors.impossible': 'payment',
  'orders.errors.not_found': 'not_found',
  'orders.errors.not_allowed': 'conflict',
  'orders.errors.already_paid': 'conflict',
  'orders.errors.not_party': 'forbidden',
  // A cancel whose copies cannot come back (the buyer listed, transferred or used them since):
  // refused rather than refunding the buyer and leaving them the copies (issue 30 §4).
  'orders.errors.copies_not_returnable': 'conflict',
  // Notifications (spec 001 §7): an id that is not one of the caller's; an unsubscribe link that
  // is not signed by us (or whose user is gone); the activity given does not match.
  'notifications.errors.not_found': 'not_found',
  'notifications.errors.activity_mismatch': 'conflict',
  'notifications.errors.unsubscribe_invalid': 'invalid',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}

export function statusOf(code: ErrorCode): number {
  return ERROR_KINDS[ERROR_CODES[code]];
}

/** The error body every call answers with. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Field path (dot-joined) → error code, for validation errors. */
    fields?: Record<string, string>;
    /**
     * What the caller needs to act on the error without another read (a refused bid:
     * `minimBid`, the smallest bid the lot takes now).
     */
    details?: Record<string, unknown>;
    requestId: string;
  };
}
