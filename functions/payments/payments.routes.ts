import { route, type StreamTrigger } from '../core/route';
import {
  beginOnboardingSchema,
  checkPaymentMethodsSchema,
  createCustomerSchema,
  createSetupIntentSchema,
  customerSchema,
  defaultPaymentMethodSchema,
  loginLinkSchema,
  minterCheckSchema,
  onboardingLinkSchema,
  paymentMethodsCheckSchema,
  removePaymentMethodSchema,
  savedCardListSchema,
  setupSessionSchema,
  userBalanceSchema,
  webhookAnswerSchema,
} from '../../shared/schemas/payments';
import { STRIPE_EVENT_TYPE } from './payments.keys';

const TAGS = ['payment-gateway'] as const;

/**
 * The payments domain's HTTP calls (spec 001 §7 "Payment gateway", 000 §7 "Card payment calls"),
 * under /api/payment-gateway. Every call but the webhook needs a session; every one calls Stripe
 * (`stripe: true`: only these functions may read the Stripe secret).
 */
export const paymentsRoutes = {
  beginOnboarding: route({
    method: 'POST',
    path: '/api/payment-gateway/onboarding-minter/begin',
    handler: 'payments/handlers/begin-onboarding',
    auth: 'user',
    group: 'orders',
    stripe: true,
    live: true,
    notify: true,
    summary:
      "Start seller onboarding (001 §4): opens the caller's Stripe Connect Express account in {country} (once; a second begin continues the same account) and answers Stripe's onboarding URL; 400 onboarding.errors.invalid_country outside Express countries",
    tags: TAGS,
    request: { body: beginOnboardingSchema },
    response: onboardingLinkSchema,
  }),
  checkOnboarding: route({
    method: 'GET',
    path: '/api/payment-gateway/onboarding-minter/check',
    handler: 'payments/handlers/check-onboarding',
    auth: 'user',
    group: 'orders',
    access: { table: 'write' },
    stripe: true,
    live: true,
    notify: true,
    summary:
      "The minter check of the caller's connected account, read from Stripe, and the status it gives (001 §3, §4); keeps the status on the user; 404 onboarding.errors.not_onboarded without an account",
    tags: TAGS,
    response: minterCheckSchema,
  }),
  refreshOnboarding: route({
    method: 'POST',
    path: '/api/payment-gateway/onboarding-minter/refresh',
    handler: 'payments/handlers/refresh-onboarding',
    auth: 'user',
    group: 'orders',
    stripe: true,
    live: true,
    notify: true,
    summary:
      'A fresh onboarding link (continue_onboarding), the Express dashboard (success), or no link (pending, verifying); POST where the spec says GET (it creates a single-use link and keeps the status)',
    tags: TAGS,
    response: onboardingLinkSchema,
  }),
  loginAccount: route({
    method: 'POST',
    path: '/api/payment-gateway/login-account',
    handler: 'payments/handlers/login-account',
    auth: 'user',
    group: 'orders',
    access: { table: 'read' },
    stripe: true,
    summary:
      "A single-use link to the seller's Stripe Express dashboard; POST where the spec says GET (each call creates a link); 409 onboarding.errors.not_complete before the details are submitted",
    tags: TAGS,
    response: loginLinkSchema,
  }),
  userBalance: route({
    method: 'GET',
    path: '/api/payment-gateway/getuserbalance',
    handler: 'payments/handlers/get-user-balance',
    auth: 'user',
    group: 'orders',
    stripe: true,
    summary:
      "The seller's Stripe balance, available and pending, per currency in minor units (001 §7 data.available[].currency)",
    tags: TAGS,
    response: userBalanceSchema,
  }),
  createCustomer: route({
    method: 'POST',
    path: '/api/payment-gateway/create-customer',
    handler: 'payments/handlers/create-customer',
    auth: 'user',
    group: 'orders',
    access: { table: 'write' },
    stripe: true,
    summary:
      "The caller's Stripe customer, created on first need (one per user, whatever the concurrency)",
    tags: TAGS,
    request: { body: createCustomerSchema },
    response: customerSchema,
  }),
  createSetupIntent: route({
    method: 'POST',
    path: '/api/payment-gateway/create-setup-intent',
    handler: 'payments/handlers/create-setup-intent',
    auth: 'user',
    group: 'orders',
    access: { table: 'write' },
    stripe: true,
    summary:
      "Save a card: answers Stripe's hosted page (Checkout in setup mode) for the caller's customer, which returns to /stripe/payment/success or /cancel",
    tags: TAGS,
    request: { body: createSetupIntentSchema },
    response: setupSessionSchema,
  }),
  listPaymentMethods: route({
    method: 'GET',
    path: '/api/payment-gateway/payment-methods',
    handler: 'payments/handlers/list-payment-methods',
    auth: 'user',
    group: 'orders',
    stripe: true,
    summary:
      "The caller's saved cards, newest first: brand, funding, last4, expiry, created, default (001 §3 Saved card)",
    tags: TAGS,
    response: savedCardListSchema,
  }),
  removePaymentMethod: route({
    method: 'POST',
    path: '/api/payment-gateway/remove-payment-method',
    handler: 'payments/handlers/remove-payment-method',
    auth: 'user',
    group: 'orders',
    access: { table: 'read' },
    stripe: true,
    live: true,
    summary:
      "Remove one of the caller's saved cards (detached from the customer); the newest other card becomes the default; 404 payments.errors.card_not_found",
    tags: TAGS,
    request: { body: removePaymentMethodSchema },
    response: savedCardListSchema,
  }),
  defaultPaymentMethod: route({
    method: 'POST',
    path: '/api/payment-gateway/default-payment-method',
    handler: 'payments/handlers/default-payment-method',
    auth: 'user',
    group: 'orders',
    access: { table: 'read' },
    stripe: true,
    live: true,
    summary:
      "Make one of the caller's saved cards the default (the one charged off session); 404 payments.errors.card_not_found",
    tags: TAGS,
    request: { body: defaultPaymentMethodSchema },
    response: savedCardListSchema,
  }),
  checkPaymentMethods: route({
    method: 'POST',
    path: '/api/payment-gateway/check-payment-methods',
    handler: 'payments/handlers/check-payment-methods',
    auth: 'user',
    group: 'orders',
    access: { table: 'read' },
    stripe: true,
    summary:
      'Whether the caller has a saved card that can be charged (not expired), and the default one (000 §7)',
    tags: TAGS,
    request: { body: checkPaymentMethodsSchema },
    response: paymentMethodsCheckSchema,
  }),
  webhook: route({
    method: 'POST',
    path: '/api/payment-gateway/webhook',
    handler: 'payments/handlers/webhook',
    auth: 'public',
    group: 'orders',
    access: { table: 'write' },
    // The endpoint's signing secrets (the Stripe secret) to check the signature; the work an event
    // triggers runs in the stripeEvents stream trigger, not here.
    stripe: true,
    rawBody: true,
    summary:
      "Stripe's webhook endpoint: the Stripe-Signature is checked on the raw body (400 payments.errors.webhook_signature), the event is kept once and answered at once (duplicate: a redelivery); the stripeEvents stream trigger handles it off the request path, once whatever the redeliveries and their order; unknown types are acknowledged and not kept",
    tags: TAGS,
    response: webhookAnswerSchema,
  }),
};

/**
 * The Stripe events the webhook kept, handled off its request path (functions/payments/webhook.ts
 * handleEvent): a new event item of the table (state `received`) reaches this trigger through the
 * stream. It may honour a sale (orders), pay the parties out (Stripe), notify and start the
 * payout-release wait. A batch that keeps failing is skipped after its retries and kept; the
 * events stay pending in the table, and the trigger's schedule (`stripeEventsReplay`) handles them.
 */
export const paymentsStreamTriggers = {
  stripeEvents: {
    handler: 'payments/handlers/stripe-events',
    notify: true,
    stripe: true,
    workflows: ['payout-release'],
    filters: [
      {
        eventName: ['INSERT'],
        dynamodb: { NewImage: { type: { S: [STRIPE_EVENT_TYPE] }, state: { S: ['received'] } } },
      },
    ],
    batchSize: 10,
    maxRetryAttempts: 5,
    maxRecordAgeSeconds: 900,
    // Budget: up to 10 events a batch, each a few Stripe calls and an order's sale or payouts.
    timeoutSeconds: 120,
  },
} as const satisfies Record<string, StreamTrigger>;
