/**
 * The payments domain's public module (Stripe: seller onboarding, saved cards, webhooks). Other
 * domains import only this file; checkout and bids (next issues) build on these.
 */
export { ensureCustomer, checkCards, listCards } from './cards';
export { checkOnboarding } from './onboarding';
export type { DisputeFacts, PaymentsDeps } from './payments';
export {
  confirmOrderIntent,
  createOrderCheckout,
  openOrderIntent,
  expireCheckout,
  payoutAccountOf,
  refundPayment,
  refundsOf,
  retrieveCheckout,
  retrievePayment,
  reverseTransfer,
  transferShare,
  type CheckoutFacts,
  type OrderCharge,
  type PaymentFacts,
  type RefundFacts,
  type ReversalOutcome,
  type ShareTransfer,
  type TransferOutcome,
} from './charges';
export { paymentsDeps } from './payments.deps';
export { ProviderUnavailable } from './payments.stripe';
export { reconcileStripe, type MoneyFinding, type MoneyMovement } from './reconcile';
