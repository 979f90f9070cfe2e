/**
 * The orders domain's public module (issue 12): booking, paying, fulfilment and the order lists.
 * Payments hands Stripe's order events over through the functions below (payments.deps.ts wires
 * them); auctions (next issue) create winners' orders through this file.
 */
export {
  chargeRefunded,
  checkoutCompleted,
  checkoutExpired,
  paymentIntentChanged,
} from './payment';
export { releaseWaitingPayouts } from './apply';
export { ordersDeps } from './orders.deps';
export type { OrdersDeps } from './ports';
