/**
 * The Stripe objects the twin keeps, built in Stripe's shapes and typed as the official SDK's
 * `Stripe.*` types (the contract test compares them with Stripe's published fixtures). Only the
 * objects the product uses; every field of those is present, with Stripe's null where the twin
 * has nothing to say.
 */
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-like id: `<prefix>_` and 24 letters and digits (`acct_1Pgaf…`). */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

/**
 * An amount in minor units as the hosted pages show it (`25.00 EUR`, `1500 JPY`): the currency's
 * own number of decimals (Stripe's zero-decimal currencies have none).
 */
export function displayAmount(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let decimals = 2;
  try {
    decimals =
      new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // Not an ISO code Intl knows: Stripe's default of two decimals.
  }
  return `${(amount / 10 ** decimals).toFixed(decimals)} ${code}`;
}

/** Seconds since the epoch, as Stripe's `created` fields. */
export const unix = (now: Date): number => Math.floor(now.getTime() / 1000);

/** What an Express account must still provide before it can take payments (Stripe's names). */
export const EXPRESS_REQUIREMENTS = [
  'business_profile.mcc',
  'business_profile.url',
  'external_account',
  'individual.dob.day',
  'individual.first_name',
  'individual.last_name',
  'tos_acceptance.date',
  'tos_acceptance.ip',
] as const;

/** Documents the onboarding page's "leave documents due" choice leaves to provide. */
export const DOCUMENT_REQUIREMENTS = ['individual.verification.document'] as const;

/**
 * Countries where Stripe Connect Express accounts can be created (platform in the EU/UK/US): Stripe's
 * side of the rule; the product's own list is shared/onboarding.ts (a test keeps them agreeing).
 */
export const EXPRESS_COUNTRIES = new Set([
  'AT', 'AU', 'BE', 'BG', 'CA', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GI',
  'GR', 'HK', 'HR', 'HU', 'IE', 'IT', 'JP', 'LI', 'LT', 'LU', 'LV', 'MT', 'MX', 'NL', 'NO', 'NZ',
  'PL', 'PT', 'RO', 'SE', 'SG', 'SI', 'SK', 'TH', 'US',
]); // prettier-ignore

const CURRENCY_OF: Record<string, string> = {
  US: 'usd', GB: 'gbp', CH: 'chf', DK: 'dkk', NO: 'nok', SE: 'sek', PL: 'pln', CZ: 'czk',
  HU: 'huf', RO: 'ron', BG: 'bgn', AU: 'aud', CA: 'cad', JP: 'jpy', HK: 'hkd', SG: 'sgd',
  NZ: 'nzd', MX: 'mxn', TH: 'thb', GI: 'gbp', LI: 'chf',
}; // prettier-ignore

export function currencyOf(country: string): string {
  return CURRENCY_OF[country] ?? 'eur';
}

function requirements(currentlyDue: readonly string[], pending: readonly string[] = []) {
  const due = [...currentlyDue];
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: due,
    disabled_reason:
      due.length > 0
        ? ('requirements.past_due' as const)
        : pending.length > 0
          ? ('requirements.pending_verification' as const)
          : null,
    errors: [],
    eventually_due: due,
    past_due: due,
    pending_verification: [...pending],
  };
}

/** Where an account's onboarding stands; the onboarding page moves it. */
export type OnboardingState = 'new' | 'documents_due' | 'pending_verification' | 'complete';

/** An Express account as `POST /v1/accounts {type: express}` creates it. */
/** The capabilities an Express account can be asked for (the ones the twin knows). */
export type RequestedCapability = 'card_payments' | 'transfers';

export function newAccount(
  input: {
    country: string;
    email: string | null;
    metadata: Record<string, string>;
    /** As Stripe, the account has the capabilities asked for at creation, inactive until onboarded. */
    capabilities: readonly RequestedCapability[];
  },
  now: Date,
): Stripe.Account {
  const id = stripeId('acct', 16);
  const account = {
    id,
    object: 'account' as const,
    business_profile: {
      annual_revenue: null,
      estimated_worker_count: null,
      mcc: null,
      minority_owned_business_designation: null,
      name: null,
      product_description: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: null,
    capabilities: Object.fromEntries(
      input.capabilities.map((capability) => [capability, 'inactive' as const]),
    ),
    charges_enabled: false,
    controller: {
      fees: { payer: 'application' as const },
      is_controller: true,
      losses: { payments: 'application' as const },
      requirement_collection: 'stripe' as const,
      stripe_dashboard: { type: 'express' as const },
      type: 'application' as const,
    },
    country: input.country,
    created: unix(now),
    default_currency: currencyOf(input.country),
    details_submitted: false,
    email: input.email,
    external_accounts: {
      object: 'list' as const,
      data: [],
      has_more: false,
      url: `/v1/accounts/${id}/external_accounts`,
    },
    future_requirements: requirements([]),
    metadata: input.metadata,
    payouts_enabled: false,
    requirements: requirements(EXPRESS_REQUIREMENTS),
    settings: {
      bacs_debit_payments: { display_name: null, service_user_number: null },
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_issuing: { tos_acceptance: { date: null, ip: null } },
      card_payments: {
        decline_on: { avs_failure: false, cvc_failure: false },
        statement_descriptor_prefix: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      dashboard: { display_name: null, timezone: 'Etc/UTC' },
      invoices: { default_account_tax_ids: null, hosted_payment_method_save: null },
      payments: {
        statement_descriptor: null,
        statement_descriptor_kana: null,
        statement_descriptor_kanji: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      payouts: {
        debit_negative_balances: true,
        schedule: { delay_days: 2, interval: 'daily' as const },
        statement_descriptor: null,
      },
      sepa_debit_payments: {},
    },
    tos_acceptance: { date: null, ip: null, user_agent: null },
    type: 'express' as const,
  };
  return account as unknown as Stripe.Account;
}

/** The account after the onboarding page's choice `state`. */
export function onboarded(
  account: Stripe.Account,
  state: OnboardingState,
  now: Date,
): Stripe.Account {
  const base = {
    ...account,
    business_profile: {
      ...account.business_profile,
      mcc: '5735',
      url: 'https://twin.example/seller',
      product_description: 'Numbered editions',
    },
    business_type: 'individual' as const,
    tos_acceptance: { date: unix(now), ip: '127.0.0.1', user_agent: 'twin' },
  };
  switch (state) {
    case 'new':
      return account;
    case 'documents_due':
      return {
        ...base,
        details_submitted: true,
        requirements: requirements(DOCUMENT_REQUIREMENTS),
      } as Stripe.Account;
    case 'pending_verification':
      return {
        ...base,
        details_submitted: true,
        requirements: requirements([], ['individual.verification.document']),
      } as Stripe.Account;
    case 'complete':
      return {
        ...base,
        details_submitted: true,
        // Payments only for an account that asked for card_payments (a transfers-only one never
        // takes them: separate charges and transfers).
        charges_enabled: account.capabilities?.card_payments !== undefined,
        payouts_enabled: true,
        capabilities: Object.fromEntries(
          Object.keys(account.capabilities ?? {}).map((capability) => [capability, 'active']),
        ),
        requirements: requirements([]),
      } as Stripe.Account;
  }
}

export function newCustomer(
  input: {
    email: string | null;
    name: string | null;
    phone: string | null;
    description: string | null;
    metadata: Record<string, string>;
  },
  now: Date,
): Stripe.Customer {
  const customer = {
    id: stripeId('cus', 14),
    object: 'customer' as const,
    address: null,
    balance: 0,
    created: unix(now),
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: input.description,
    discount: null,
    email: input.email,
    invoice_prefix: stripeId('x', 7).slice(2).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    next_invoice_sequence: 1,
    phone: input.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none' as const,
    test_clock: null,
  };
  return customer as unknown as Stripe.Customer;
}

/** A card of Stripe's test cards, as a PaymentMethod (the twin knows them by number). */
export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard' | 'amex';
  funding: 'credit' | 'debit';
  country: string;
  /** What happens when it is used: see the twin's README. */
  behaviour:
    | 'succeeds'
    | 'declined'
    | 'insufficient_funds'
    | 'authentication'
    | 'always_authenticate'
    | 'fails_later';
}

export const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  '4242424242424242': { number: '4242424242424242', brand: 'visa', funding: 'credit', country: 'US', behaviour: 'succeeds' },
  '5555555555554444': { number: '5555555555554444', brand: 'mastercard', funding: 'credit', country: 'US', behaviour: 'succeeds' },
  '4000056655665556': { number: '4000056655665556', brand: 'visa', funding: 'debit', country: 'US', behaviour: 'succeeds' },
  '4000000000000002': { number: '4000000000000002', brand: 'visa', funding: 'credit', country: 'US', behaviour: 'declined' },
  '4000000000009995': { number: '4000000000009995', brand: 'visa', funding: 'credit', country: 'US', behaviour: 'insufficient_funds' },
  '4000002500003155': { number: '4000002500003155', brand: 'visa', funding: 'credit', country: 'US', behaviour: 'authentication' },
  '4000000000000341': { number: '4000000000000341', brand: 'visa', funding: 'credit', country: 'US', behaviour: 'fails_later' },
  // Stripe's "always authenticate": every payment asks the customer, off session it is declined.
  '4000002760003184': { number: '4000002760003184', brand: 'visa', funding: 'credit', country: 'US', behaviour: 'always_authenticate' },
}; // prettier-ignore

/** Stripe's test PaymentMethod tokens (`pm_card_visa`…), by the card they stand for. */
export const TEST_PAYMENT_METHOD_TOKENS: Readonly<Record<string, string>> = {
  pm_card_visa: '4242424242424242',
  pm_card_mastercard: '5555555555554444',
  pm_card_visa_debit: '4000056655665556',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_authenticationRequired: '4000002500003155',
  pm_card_chargeCustomerFail: '4000000000000341',
};

export function newCardPaymentMethod(
  card: TestCard,
  input: { expMonth: number; expYear: number; metadata: Record<string, string> },
  now: Date,
): Stripe.PaymentMethod {
  const paymentMethod = {
    id: stripeId('pm'),
    object: 'payment_method' as const,
    allow_redisplay: 'unspecified' as const,
    billing_details: {
      address: {
        city: null,
        country: null,
        line1: null,
        line2: null,
        postal_code: null,
        state: null,
      },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: card.country,
      display_brand: card.brand,
      exp_month: input.expMonth,
      exp_year: input.expYear,
      fingerprint: `fp${card.number.slice(-8)}`,
      funding: card.funding,
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated' as const,
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: unix(now),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: input.metadata,
    type: 'card' as const,
  };
  return paymentMethod as unknown as Stripe.PaymentMethod;
}

export function newSetupIntent(
  input: {
    customer: string | null;
    paymentMethodTypes: string[];
    usage: 'off_session' | 'on_session';
    description: string | null;
    metadata: Record<string, string>;
  },
  now: Date,
): Stripe.SetupIntent {
  const id = stripeId('seti');
  const setupIntent = {
    id,
    object: 'setup_intent' as const,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${stripeId('x', 32).slice(2)}`,
    created: unix(now),
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' as const },
    },
    payment_method_types: input.paymentMethodTypes,
    single_use_mandate: null,
    status: 'requires_payment_method' as const,
    usage: input.usage,
  };
  return setupIntent as unknown as Stripe.SetupIntent;
}

export function newAccountLink(url: string, now: Date): Stripe.AccountLink {
  return {
    object: 'account_link',
    created: unix(now),
    expires_at: unix(now) + 300,
    url,
  };
}

export function newLoginLink(url: string, now: Date): Stripe.LoginLink {
  return { object: 'login_link', created: unix(now), url };
}

export function newEvent(
  input: {
    type: string;
    object: { id?: string; object?: string };
    previousAttributes?: Record<string, unknown>;
    account?: string | undefined;
    request: { id: string | null; idempotency_key: string | null };
    apiVersion: string;
  },
  now: Date,
): Stripe.Event {
  const event = {
    id: stripeId('evt'),
    object: 'event' as const,
    ...(input.account === undefined ? {} : { account: input.account }),
    api_version: input.apiVersion,
    created: unix(now),
    data: {
      object: structuredClone(input.object),
      ...(input.previousAttributes === undefined
        ? {}
        : { previous_attributes: input.previousAttributes }),
    },
    livemode: false,
    pending_webhooks: 1,
    request: input.request,
    type: input.type,
  };
  return event as unknown as Stripe.Event;
}
