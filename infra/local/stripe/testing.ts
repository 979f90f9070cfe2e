import type Stripe from 'stripe';

/**
 * For tests that drive the Stripe twin with the official SDK: a connected account onboarded on
 * the twin's hosted form, and a customer with a card saved for off-session use. The twin's own
 * tests (stripe.test.ts) assert on the pages these go through; other tests only need the result.
 */

export const RETURN_URL = 'http://app.example/stripe/onboarding/minter';

/** Opens an account link and answers its hosted form with `choice` (e.g. 'complete'). */
export async function onboardOnPage(stripe: Stripe, accountId: string, choice: string) {
  const link = await stripe.accountLinks.create({
    account: accountId,
    type: 'account_onboarding',
    refresh_url: 'http://app.example/stripe/payment/refresh',
    return_url: RETURN_URL,
  });
  const opened = await fetch(link.url);
  const page = { status: opened.status, text: await opened.text() };
  const submitted = await fetch(link.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `choice=${choice}`,
    redirect: 'manual',
  });
  return { link, page, submitted };
}

/** An Express account (in `country`) whose onboarding is complete: it can receive transfers. */
export async function onboardedAccount(stripe: Stripe, country = 'ES'): Promise<string> {
  const account = await stripe.accounts.create({ type: 'express', country });
  const { submitted } = await onboardOnPage(stripe, account.id, 'complete');
  if (submitted.status !== 303) throw new Error(`onboarding answered ${submitted.status}`);
  return account.id;
}

/** Answers the twin's 3D Secure test page with `choice`. */
export function authenticateOnPage(url: string, choice: 'complete' | 'fail'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `choice=${choice}`,
    redirect: 'manual',
  });
}

/** A customer with card `token` saved for off-session use (authenticated if it asks), and that card. */
export async function savedCard(stripe: Stripe, token: string) {
  const customer = await stripe.customers.create({});
  const setup = await stripe.setupIntents.create({
    customer: customer.id,
    payment_method: token,
    confirm: true,
    usage: 'off_session',
    return_url: 'http://app.example/account/settings/paymentmethod',
  });
  if (setup.status === 'requires_action') {
    // The card asks for authentication (3155): the customer completes it on the bank's page.
    await authenticateOnPage(setup.next_action?.redirect_to_url?.url as string, 'complete');
  }
  return { customer: customer.id, card: setup.payment_method as string };
}
