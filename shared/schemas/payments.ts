import * as z from 'zod';
import { ONBOARDING_STATUSES } from '../onboarding';

/**
 * The payment-gateway calls (spec 001 §7 "Payment gateway", 000 §7 "Card payment calls"): seller
 * onboarding with Stripe Connect Express, the connected account's balance, saved cards. Field
 * names are the spec's. All Stripe UI is hosted (DESIGN §5): the calls answer Stripe's URLs and
 * the web opens them.
 */

export const onboardingStatusSchema = z.enum(ONBOARDING_STATUSES);

/** Body of POST /api/payment-gateway/onboarding-minter/begin. */
export const beginOnboardingSchema = z.object({
  /** ISO 3166-1 alpha-2 code of the seller's country (a Connect Express country). */
  country: z
    .string({ error: 'forms.validation.required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'forms.validation.country' }),
});
export type BeginOnboardingBody = z.infer<typeof beginOnboardingSchema>;

/**
 * Answer of begin and refresh (001 §7: `data.onboarding_status`, `data.url`): where to send the
 * onboarding window. `url` is Stripe's onboarding page (continue_onboarding), the Express
 * dashboard (success), or null when there is nothing for the user to do on Stripe (pending:
 * Stripe asks for documents by e-mail and in the dashboard; verifying: Stripe is checking).
 */
export const onboardingLinkSchema = z.object({
  onboarding_status: onboardingStatusSchema,
  url: z.string().nullable(),
});
export type OnboardingLink = z.infer<typeof onboardingLinkSchema>;

/** Answer of GET …/onboarding-minter/check: the minter check (001 §3) and the status it gives. */
export const minterCheckSchema = z.object({
  onboarding_status: onboardingStatusSchema,
  minter_completed: z.boolean(),
  details_submitted: z.boolean(),
  currently_due: z.array(z.string()),
  pending_verification: z.array(z.string()),
});
export type MinterCheckAnswer = z.infer<typeof minterCheckSchema>;

/** Answer of POST …/login-account: a single-use link to the seller's Express dashboard. */
export const loginLinkSchema = z.object({ url: z.string() });

/** An amount in a currency's minor units (Stripe's shape: lower-case ISO code). */
export const moneyAmountSchema = z.object({
  amount: z.number().int(),
  currency: z.string(),
});
export type MoneyAmount = z.infer<typeof moneyAmountSchema>;

/** Answer of GET …/getuserbalance (001 §7 `data.available[].currency`). */
export const userBalanceSchema = z.object({
  available: z.array(moneyAmountSchema),
  pending: z.array(moneyAmountSchema),
});
export type UserBalance = z.infer<typeof userBalanceSchema>;

/** An optional order the caller is paying for (000 §7 passes `order_id`; orders come later). */
const orderId = z.string().trim().min(1).max(100).optional();

/** Body of POST …/create-customer. */
export const createCustomerSchema = z.object({ order_id: orderId });
export const customerSchema = z.object({ customer_id: z.string() });

/** Body of POST …/create-setup-intent (000 §7 `{type: card}`). */
export const createSetupIntentSchema = z.object({
  type: z.literal('card', { error: 'forms.validation.enum' }),
});
/**
 * Answer of create-setup-intent: Stripe's hosted page (Checkout in setup mode) where the card is
 * entered and, when the bank asks, authenticated. The web sends the browser there; Stripe comes
 * back to /stripe/payment/success or /stripe/payment/cancel.
 */
export const setupSessionSchema = z.object({ session_id: z.string(), url: z.string() });
export type SetupSession = z.infer<typeof setupSessionSchema>;

/** A saved card (001 §3 "Saved card": funding, last4, expiry, created) and whether it is default. */
export const savedCardSchema = z.object({
  id: z.string(),
  brand: z.string(),
  funding: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  /** ISO 8601. */
  created: z.string(),
  default: z.boolean(),
  /** The card's expiry month has passed: it cannot be charged. */
  expired: z.boolean(),
});
export type SavedCard = z.infer<typeof savedCardSchema>;

/** Answer of GET …/payment-methods: newest first. */
export const savedCardListSchema = z.object({ payment_methods: z.array(savedCardSchema) });
export type SavedCardList = z.infer<typeof savedCardListSchema>;

const paymentMethodId = z
  .string({ error: 'forms.validation.required' })
  .regex(/^pm_[A-Za-z0-9_]{1,200}$/, { error: 'forms.validation.invalid' });

/** Body of POST …/remove-payment-method (000 §7, 001 §7). */
export const removePaymentMethodSchema = z.object({
  payment_method: paymentMethodId,
  order_id: orderId,
});
/** Body of POST …/default-payment-method. */
export const defaultPaymentMethodSchema = z.object({ payment_method: paymentMethodId });

/** Body of POST …/check-payment-methods (000 §7). */
export const checkPaymentMethodsSchema = z.object({ order_id: orderId });
/** Whether the caller has a card that can be charged (bids need one), and which is the default. */
export const paymentMethodsCheckSchema = z.object({
  has_payment_method: z.boolean(),
  default_payment_method: z.string().nullable(),
});
export type PaymentMethodsCheck = z.infer<typeof paymentMethodsCheckSchema>;

/** Answer of the webhook call (Stripe reads only the status). */
export const webhookAnswerSchema = z.object({
  received: z.literal(true),
  /** The event was handled before (a redelivery): nothing was done again. */
  duplicate: z.boolean(),
});
