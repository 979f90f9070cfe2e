import type Stripe from 'stripe';
import type { OpenDispute } from './disputes';
import type { Fault, FaultSpec } from './faults';

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
  const account = await stripe.accounts.create({
    type: 'express',
    country,
    capabilities: { transfers: { requested: true } },
  });
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

/*
 * The twin's failure controls over HTTP, for tests in other processes than the twin (README,
 * "Failures the twin can play"). `stripeUrl` is the twin's base URL (`twin.url`, or
 * `http://127.0.0.1:12111` under `npm start`). A refused control throws with Stripe's message.
 */

async function control<T>(
  stripeUrl: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const response = await fetch(`${stripeUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) {
    throw new Error(
      `${method} ${path} answered ${response.status}: ${answer.error?.message ?? 'no message'}`,
    );
  }
  return answer;
}

const query = (values: Record<string, string | undefined>) => {
  const search = new URLSearchParams(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return search === '' ? '' : `?${search}`;
};

/** The next `times` (default 1) API requests fitting `spec` fail as it says; answers the fault. */
export function injectFault(stripeUrl: string, spec: FaultSpec): Promise<Fault> {
  return control<Fault>(stripeUrl, 'POST', '/dev/faults', { ...spec });
}

/** Clears every fault, or those injected with `match`; answers how many. */
export async function clearFaults(stripeUrl: string, match?: string): Promise<number> {
  return (await control<{ cleared: number }>(stripeUrl, 'DELETE', `/dev/faults${query({ match })}`))
    .cleared;
}

/** The active faults, with the hits each has `left`. */
export async function listFaults(stripeUrl: string): Promise<Fault[]> {
  return (await control<{ faults: Fault[] }>(stripeUrl, 'GET', '/dev/faults')).faults;
}

/** The cardholder's bank disputes a succeeded payment (`needs_response`, funds withdrawn). */
export function openDispute(stripeUrl: string, input: OpenDispute): Promise<Stripe.Dispute> {
  return control<Stripe.Dispute>(stripeUrl, 'POST', '/dev/disputes', { ...input });
}

/** The bank decides the dispute: `won` reinstates the funds, `lost` keeps them withdrawn. */
export function closeDispute(
  stripeUrl: string,
  id: string,
  outcome: 'won' | 'lost',
): Promise<Stripe.Dispute> {
  return control<Stripe.Dispute>(stripeUrl, 'POST', `/dev/disputes/${id}/close`, { outcome });
}

/**
 * Stripe's automatic payout of the account's available balance (`payout.paid`); with `fail`
 * (true, or a failure code such as `account_frozen`) the bank refuses it (`payout.failed`) and
 * the money returns to the account's balance.
 */
export async function payOutAccount(
  stripeUrl: string,
  account: string,
  options: { fail?: boolean | string } = {},
): Promise<Stripe.Payout[]> {
  const fail = options.fail === true ? '1' : options.fail === false ? undefined : options.fail;
  return (
    await control<{ payouts: Stripe.Payout[] }>(
      stripeUrl,
      'POST',
      `/dev/accounts/${account}/payout${query({ fail })}`,
    )
  ).payouts;
}

/** Holds the webhook deliveries of the events containing `match` (until released or dropped). */
export async function holdWebhooks(stripeUrl: string, match: string): Promise<void> {
  await control(stripeUrl, 'POST', `/dev/webhooks/hold${query({ match })}`);
}

/** Discards the held deliveries of `match` for good (Stripe's retries ran out); how many. */
export async function dropWebhooks(stripeUrl: string, match: string): Promise<number> {
  return (
    await control<{ dropped: number }>(stripeUrl, 'POST', `/dev/webhooks/drop${query({ match })}`)
  ).dropped;
}

/** An event of `type` about the existing object `objectId` (e.g. an async Checkout payment). */
export function emitEvent(
  stripeUrl: string,
  type: string,
  objectId: string,
): Promise<Stripe.Event> {
  return control<Stripe.Event>(stripeUrl, 'POST', '/dev/events', { type, object: objectId });
}

/** The account disconnects from the platform (`account.application.deauthorized`). */
export function deauthorize(stripeUrl: string, account: string): Promise<Stripe.Event> {
  return control<Stripe.Event>(stripeUrl, 'POST', `/dev/accounts/${account}/deauthorize`);
}
