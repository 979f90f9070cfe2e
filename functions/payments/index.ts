/**
 * The payments domain's public module (Stripe: seller onboarding, saved cards, webhooks). Other
 * domains import only this file; checkout and bids (next issues) build on these.
 */
export { ensureCustomer, checkCards, listCards } from './cards';
export { checkOnboarding } from './onboarding';
export type { PaymentsDeps } from './payments';
export {
  chargeSavedCard,
  createOrderCheckout,
  expireCheckout,
  payoutAccountOf,
  refundPayment,
  retrieveCheckout,
  retrievePayment,
  reverseTransfer,
  transferShare,
  type CheckoutFacts,
  type OrderCharge,
  type PaymentFacts,
  type ShareTransfer,
} from './charges';
export { paymentsDeps } from './payments.deps';
