/**
 * Seller ("minter") onboarding with Stripe Connect Express (spec 001 §3 "Minter onboarding check",
 * §4 "Minter onboarding"), as pure decisions shared by the payment calls and the become-minter
 * modal. No imports.
 */

/** The modal's and the user's onboarding states (001 §4); none/absent reads as become_minter. */
export const ONBOARDING_STATUSES = [
  'become_minter',
  'continue_onboarding',
  'pending',
  'pending_email',
  'verifying',
  'success',
  'complete',
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];

/** What the check call answers about the user's connected account (001 §3). */
export interface MinterCheck {
  minter_completed: boolean;
  details_submitted: boolean;
  currently_due: string[];
  pending_verification: string[];
}

/** The fields of a Stripe account the check reads (`Stripe.Account`). */
export interface ConnectedAccountState {
  payouts_enabled: boolean;
  /**
   * The account's capabilities: the marketplace needs only `transfers` (separate charges and
   * transfers: the platform takes every payment, sellers only receive their shares).
   */
  capabilities?: { transfers?: string | null } | null;
  details_submitted: boolean;
  requirements?: {
    currently_due?: string[] | null;
    pending_verification?: string[] | null;
  } | null;
}

/**
 * The check of an account: completed once Stripe lets it receive transfers and pay them out, with
 * its details submitted and nothing due. It never takes payments itself (no `card_payments`).
 */
export function minterCheckOf(account: ConnectedAccountState): MinterCheck {
  const currentlyDue = account.requirements?.currently_due ?? [];
  const pendingVerification = account.requirements?.pending_verification ?? [];
  return {
    minter_completed:
      account.details_submitted &&
      account.capabilities?.transfers === 'active' &&
      account.payouts_enabled &&
      currentlyDue.length === 0,
    details_submitted: account.details_submitted,
    currently_due: [...currentlyDue],
    pending_verification: [...pendingVerification],
  };
}

/**
 * The status a check gives (001 §4): `success` when completed; `continue_onboarding` while the
 * details are not submitted; `verifying` while anything waits for Stripe's verification; `pending`
 * when documents are due and nothing is pending; otherwise `continue_onboarding`. A user the
 * server has not onboarded at all (`null`: no connected account) is `become_minter`.
 */
export function onboardingStatusOf(check: MinterCheck | null): OnboardingStatus {
  if (check === null) return 'become_minter';
  if (check.minter_completed) return 'success';
  if (!check.details_submitted) return 'continue_onboarding';
  if (check.pending_verification.length > 0) return 'verifying';
  if (check.currently_due.length > 0) return 'pending';
  return 'continue_onboarding';
}

/** The status kept on the user: a completed onboarding is `complete` (a seller), else the check's. */
export function storedOnboardingStatus(check: MinterCheck | null): OnboardingStatus {
  const status = onboardingStatusOf(check);
  return status === 'success' ? 'complete' : status;
}

/** Whether the user is a seller (000 §6: listing needs a complete onboarding). */
export function isOnboarded(status: string | null | undefined): boolean {
  return status === 'complete';
}

/**
 * Countries where a Connect Express account can be opened for this platform (Stripe's list of
 * cross-border Express countries for a platform in the EU, UK or US); any other gets the modal's
 * invalid-country step and the begin call's 400.
 */
export const EXPRESS_COUNTRIES: readonly string[] = [
  'AT', 'AU', 'BE', 'BG', 'CA', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GI',
  'GR', 'HK', 'HR', 'HU', 'IE', 'IT', 'JP', 'LI', 'LT', 'LU', 'LV', 'MT', 'MX', 'NL', 'NO', 'NZ',
  'PL', 'PT', 'RO', 'SE', 'SG', 'SI', 'SK', 'TH', 'US',
]; // prettier-ignore

export function isExpressCountry(code: string): boolean {
  return EXPRESS_COUNTRIES.includes(code.toUpperCase());
}
