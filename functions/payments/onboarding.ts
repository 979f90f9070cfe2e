import type Stripe from 'stripe';
import { DomainError } from '../core/errors';
import { logger } from '../core/logger';
import {
  isExpressCountry,
  minterCheckOf,
  onboardingStatusOf,
  storedOnboardingStatus,
  type MinterCheck,
  type OnboardingStatus,
} from '../../shared/onboarding';
import type { MinterCheckAnswer, OnboardingLink, UserBalance } from '../../shared/schemas/payments';
import { RETURN_PAGES, type PaymentsDeps } from './payments';
import { isStripeError, viaStripe } from './payments.stripe';

/**
 * Seller onboarding with Stripe Connect Express (spec 001 §4 "Minter onboarding", §7 payment
 * gateway calls, §8 Onboarding errors). The connected account is the truth: every call reads it
 * from Stripe, keeps the status it gives on the user's profile (a `complete` one makes the user a
 * seller) and tells the user's open tabs (`stripe.updated`) when it changed.
 */

function notOnboarded(): DomainError {
  return new DomainError('onboarding.errors.not_onboarded', { message: 'User not yet onboarded' });
}

async function accountIdOf(deps: PaymentsDeps, userId: string): Promise<string> {
  const accountId = (await deps.repo.getRecord(userId))?.stripe_account_id;
  if (accountId === undefined) throw notOnboarded();
  return accountId;
}

/**
 * Keeps the status an account gives on the user's profile and tells the user's tabs when it
 * changed. Answers the stored status. Shared by the calls and the `account.updated` webhook.
 */
/** The onboarding statuses the seller is told about (001 §3 minter_pending; and when complete). */
const ONBOARDING_NOTICES: Partial<Record<OnboardingStatus, 'minter_pending' | 'minter_completed'>> =
  {
    pending: 'minter_pending',
    complete: 'minter_completed',
  };

/**
 * Notifies a change to a told-about status BEFORE keeping it: a crash in between is retried (the
 * webhook is redelivered, the check repeated) and finds the status still unchanged, and notify()
 * drops the repeat by its event key (the account and the change), so the seller hears it once.
 */
async function notifyOnboarding(
  deps: Pick<PaymentsDeps, 'storedStatusOf' | 'notify'>,
  userId: string,
  accountId: string,
  stored: OnboardingStatus,
): Promise<void> {
  const activity = ONBOARDING_NOTICES[stored];
  if (activity === undefined) return;
  const previous = (await deps.storedStatusOf(userId)) ?? 'none';
  if (previous === stored) return;
  await deps.notify({
    to: userId,
    activity,
    eventKey: `onboarding:${accountId}:${previous}>${stored}`,
    payload: { status: stored },
  });
}

export async function syncOnboarding(
  deps: Pick<PaymentsDeps, 'sellers' | 'publish' | 'storedStatusOf' | 'notify'>,
  userId: string,
  account: Stripe.Account,
): Promise<{ check: MinterCheck; status: OnboardingStatus; changed: boolean }> {
  const check = minterCheckOf(account);
  const stored = storedOnboardingStatus(check);
  await notifyOnboarding(deps, userId, account.id, stored);
  const { changed } = await deps.sellers.setSellerStatus(userId, {
    onboarding_status: stored,
    is_seller: stored === 'complete',
  });
  if (changed) {
    await deps.publish(userId, { type: 'stripe.updated', onboarding_status: stored });
    logger.info('onboarding status changed', { userId, account: account.id, status: stored });
  }
  return { check, status: onboardingStatusOf(check), changed };
}

async function retrieveAccount(stripe: Stripe, accountId: string): Promise<Stripe.Account> {
  return viaStripe('onboarding.errors.generic', () => stripe.accounts.retrieve(accountId));
}

async function onboardingLink(
  deps: PaymentsDeps,
  stripe: Stripe,
  accountId: string,
): Promise<string> {
  const link = await viaStripe('onboarding.errors.generic', () =>
    stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: `${deps.webOrigin}${RETURN_PAGES.onboardingRefresh}`,
      return_url: `${deps.webOrigin}${RETURN_PAGES.onboardingReturn}`,
    }),
  );
  return link.url;
}

async function dashboardLink(stripe: Stripe, accountId: string): Promise<string> {
  const link = await viaStripe('onboarding.errors.generic', () =>
    stripe.accounts.createLoginLink(accountId),
  );
  return link.url;
}

/** Where the onboarding window goes for a status (001 §4): Stripe's form, the dashboard, or nowhere. */
async function linkFor(
  deps: PaymentsDeps,
  stripe: Stripe,
  accountId: string,
  status: OnboardingStatus,
): Promise<string | null> {
  if (status === 'continue_onboarding') return onboardingLink(deps, stripe, accountId);
  if (status === 'success') return dashboardLink(stripe, accountId);
  // pending: Stripe asks for the documents itself (e-mail, dashboard); verifying: Stripe checks.
  return null;
}

/** Stripe's refusal of the account's e-mail or phone, in the texts of 001 §8. */
function creationError(error: unknown): DomainError | undefined {
  if (!isStripeError(error) || error.type !== 'StripeInvalidRequestError') return undefined;
  const param = error.param ?? '';
  if (param === 'email') {
    return new DomainError('onboarding.errors.email_in_use', {
      message: 'Email address already in use',
    });
  }
  if (param.includes('phone')) {
    return new DomainError('onboarding.errors.phone_in_use', {
      message: 'Mobile number already in use',
    });
  }
  return undefined;
}

/**
 * POST …/onboarding-minter/begin {country}: opens the user's Express account in `country` and
 * answers Stripe's onboarding form. A user who has begun before continues the same account (Stripe
 * fixes an account's country), so two tabs or a double click never open two accounts: the create
 * carries an idempotency key of the user and country, and the account id is kept once.
 */
export async function beginOnboarding(
  deps: PaymentsDeps,
  input: { userId: string; country: string },
  now: Date,
): Promise<OnboardingLink> {
  const country = input.country.toUpperCase();
  if (!isExpressCountry(country)) {
    throw new DomainError('onboarding.errors.invalid_country', {
      message: 'Stripe cannot open seller accounts in this country.',
      fields: { country: 'onboarding.errors.invalid_country' },
    });
  }
  const record = await deps.repo.getRecord(input.userId);
  if (record?.stripe_account_id !== undefined) return refreshOnboarding(deps, input.userId);

  const user = await deps.userOf(input.userId);
  if (user === undefined) throw notOnboarded();
  const stripe = await deps.stripe();
  let created: Stripe.Account;
  try {
    created = await stripe.accounts.create(
      {
        type: 'express',
        country,
        email: user.email,
        business_type: user.user_option,
        // Only transfers: the platform takes every payment (separate charges and transfers) and
        // sellers only receive their shares, so they never need card_payments.
        capabilities: { transfers: { requested: true } },
        metadata: { user_id: input.userId },
      },
      { idempotencyKey: `onboarding-begin:${input.userId}:${country}` },
    );
  } catch (error) {
    const known = creationError(error);
    if (known !== undefined) throw known;
    return viaStripe('onboarding.errors.generic', () => Promise.reject(error));
  }
  const kept = await deps.repo.keepAccount(input.userId, created.id, country, now);
  if (kept !== created.id) {
    // Another begin (in another country) won the race: continue the kept account, drop ours.
    await stripe.accounts.del(created.id).catch((error: unknown) => {
      logger.warn('could not delete a duplicate connected account', {
        account: created.id,
        error: String(error),
      });
    });
    return refreshOnboarding(deps, input.userId);
  }
  const { status } = await syncOnboarding(deps, input.userId, created);
  return { onboarding_status: status, url: await linkFor(deps, stripe, created.id, status) };
}

/**
 * POST …/onboarding-minter/refresh: reads the account, keeps its status, and answers where the
 * onboarding window goes next (a fresh single-use onboarding link, the Express dashboard, or none).
 */
export async function refreshOnboarding(
  deps: PaymentsDeps,
  userId: string,
): Promise<OnboardingLink> {
  const accountId = await accountIdOf(deps, userId);
  const stripe = await deps.stripe();
  const account = await retrieveAccount(stripe, accountId);
  const { status } = await syncOnboarding(deps, userId, account);
  return { onboarding_status: status, url: await linkFor(deps, stripe, accountId, status) };
}

/** GET …/onboarding-minter/check: the minter check (001 §3) and the status it gives, kept. */
export async function checkOnboarding(
  deps: PaymentsDeps,
  userId: string,
): Promise<MinterCheckAnswer> {
  const accountId = await accountIdOf(deps, userId);
  const stripe = await deps.stripe();
  const account = await retrieveAccount(stripe, accountId);
  const { check, status } = await syncOnboarding(deps, userId, account);
  return { onboarding_status: status, ...check };
}

/** POST …/login-account: a link to the seller's Express dashboard. */
export async function loginAccount(deps: PaymentsDeps, userId: string): Promise<{ url: string }> {
  const accountId = await accountIdOf(deps, userId);
  const stripe = await deps.stripe();
  const account = await retrieveAccount(stripe, accountId);
  if (!account.details_submitted) {
    throw new DomainError('onboarding.errors.not_complete', {
      message: 'Finish your Stripe onboarding first.',
    });
  }
  return { url: await dashboardLink(stripe, accountId) };
}

/** GET …/getuserbalance: the connected account's balance per currency (minor units). */
export async function userBalance(deps: PaymentsDeps, userId: string): Promise<UserBalance> {
  const accountId = await accountIdOf(deps, userId);
  const stripe = await deps.stripe();
  const balance = await viaStripe('payments.errors.provider', () =>
    stripe.balance.retrieve({}, { stripeAccount: accountId }),
  );
  const amounts = (list: { amount: number; currency: string }[]) =>
    list.map(({ amount, currency }) => ({ amount, currency }));
  return { available: amounts(balance.available), pending: amounts(balance.pending) };
}
