import {
  minterCheckSchema,
  onboardingLinkSchema,
  savedCardListSchema,
  setupSessionSchema,
  type MinterCheckAnswer,
  type OnboardingLink,
  type SavedCard,
  type SetupSession,
} from '@shared/schemas/payments';
import { apiGet, apiPost } from '../../../lib/api';

/**
 * The payment-gateway calls the web makes (spec 001 §7, 000 §7; shared/schemas/payments.ts and
 * functions/payments/payments.routes.ts): seller onboarding with Stripe Connect Express and the
 * saved cards. All Stripe UI is hosted: these answer Stripe's URLs and the web opens them.
 */
const BASE = '/payment-gateway';

export const paymentKeys = {
  all: ['payments'] as const,
  cards: () => [...paymentKeys.all, 'cards'] as const,
};

/** POST …/onboarding-minter/begin {country} → the onboarding link (400 invalid_country). */
export function beginOnboarding(country: string): Promise<OnboardingLink> {
  return apiPost(`${BASE}/onboarding-minter/begin`, { country }, { schema: onboardingLinkSchema });
}

/**
 * GET …/onboarding-minter/check → the minter check and its status; 404
 * onboarding.errors.not_onboarded before the user began.
 */
export function checkOnboarding(signal?: AbortSignal): Promise<MinterCheckAnswer> {
  return apiGet(`${BASE}/onboarding-minter/check`, { schema: minterCheckSchema, signal });
}

/** POST …/onboarding-minter/refresh → a fresh link (null while pending or verifying). */
export function refreshOnboarding(): Promise<OnboardingLink> {
  return apiPost(`${BASE}/onboarding-minter/refresh`, undefined, { schema: onboardingLinkSchema });
}

/** GET …/payment-methods → the saved cards, newest first. */
export async function fetchSavedCards(signal?: AbortSignal): Promise<SavedCard[]> {
  const { payment_methods } = await apiGet(`${BASE}/payment-methods`, {
    schema: savedCardListSchema,
    signal,
  });
  return payment_methods;
}

/** POST …/create-setup-intent {type: 'card'} → Stripe's hosted card page (Checkout, setup mode). */
export function createCardSetup(): Promise<SetupSession> {
  return apiPost(`${BASE}/create-setup-intent`, { type: 'card' }, { schema: setupSessionSchema });
}

/** POST …/remove-payment-method {payment_method} → the cards left. */
export async function removeSavedCard(id: string): Promise<SavedCard[]> {
  const { payment_methods } = await apiPost(
    `${BASE}/remove-payment-method`,
    { payment_method: id },
    { schema: savedCardListSchema },
  );
  return payment_methods;
}

/** POST …/default-payment-method {payment_method} → the cards, with the new default. */
export async function makeDefaultCard(id: string): Promise<SavedCard[]> {
  const { payment_methods } = await apiPost(
    `${BASE}/default-payment-method`,
    { payment_method: id },
    { schema: savedCardListSchema },
  );
  return payment_methods;
}
