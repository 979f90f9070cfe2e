/**
 * The orders domain's public module (issue 12): booking, paying, fulfilment and the order lists.
 * Payments hands Stripe's order events over through the functions below (payments.deps.ts wires
 * them); auctions create winners' and substitutes' orders through this file (auction.ts).
 */
export {
  chargeRefunded,
  checkoutCompleted,
  checkoutExpired,
  paymentIntentChanged,
} from './payment';
export { releaseWaitingPayouts } from './apply';
export { auditMovement } from './audit';
export { disputeChanged } from './dispute';
export {
  auctionOfferStates,
  auctionOrderCopies,
  orderAuctionOffer,
  type AuctionOfferInput,
  type AuctionOrderCopies,
  type OfferState,
} from './auction';
export { ordersDeps } from './orders.deps';
export type { OrdersDeps } from './ports';
