import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, twin, useTwinEnv } from '../../infra/local/test/twin-context';
import { signatureHeader } from '../../infra/local/stripe/webhooks';
import { TWIN_WEBHOOK_SECRET } from '../../infra/local/stripe/server';
import type { NotificationPage } from '../../shared/schemas/notifications';
import type { PrivateProfile, SellerPage } from '../../shared/schemas/profiles';
import type {
  MinterCheckAnswer,
  OnboardingLink,
  PaymentMethodsCheck,
  SavedCardList,
  SetupSession,
  UserBalance,
} from '../../shared/schemas/payments';
import { call, hasCognito, newUser, type TestUser } from '../accounts/testing/session';

/**
 * The payment-gateway calls through the local gateway, with real tokens (local Cognito), against
 * the Stripe twin driven as a user would drive Stripe's pages (the hosted onboarding and Checkout
 * forms), and Stripe's webhooks as the twin delivers them: signed, redelivered, reordered.
 */
const RUN = `p${Date.now().toString(36)}`;
let enabled = false;
let stripe: Stripe;

beforeAll(() => {
  const context = useTwinEnv();
  enabled = hasCognito();
  stripe = new Stripe(context.env.STRIPE_SECRET_KEY as string, {
    host: context.env.STRIPE_API_HOST as string,
    port: Number(context.env.STRIPE_API_PORT),
    protocol: 'http',
  });
});

const PAY = '/api/payment-gateway';

async function ownProfile(user: TestUser): Promise<PrivateProfile> {
  const answer = await call<PrivateProfile>('GET', `/api/users/${user.id}/user-profile`, {
    token: user.accessToken,
  });
  expect(answer.status).toBe(200);
  return answer.json.data;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Submits Stripe's (the twin's) onboarding form behind an account link, as the seller would. */
async function submitOnboarding(
  url: string,
  choice: 'complete' | 'documents_due' | 'pending_verification' | 'leave',
): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `choice=${choice}`,
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('location') ?? '';
}

/** Enters a card on Stripe's (the twin's) hosted Checkout page; answers where it redirects. */
async function enterCard(url: string, number: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: 'buyer@example.com',
      number,
      expiry: '12 / 34',
      cvc: '123',
      name: 'Jo Buyer',
    }).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('location') ?? '';
}

/** The user's connected accounts, as the twin's /dev/stripe lists them. */
async function accountsOf(
  userId: string,
): Promise<{ id: string; country: string; email: string | null }[]> {
  const listing = (await (await gatewayFetch('/dev/stripe.json')).json()) as {
    accounts: {
      id: string;
      country: string;
      email: string | null;
      metadata: Record<string, string>;
    }[];
  };
  return listing.accounts.filter((account) => account.metadata.user_id === userId);
}

const stripeControl = (path: string, init?: RequestInit) =>
  fetch(`${twin().urls.stripe}/dev/webhooks/${path}`, init);

/** Signs `event` as Stripe signs it (the twin's endpoint secret unless another is given). */
function signedPost(
  event: unknown,
  options: { secret?: string; timestamp?: number; tamper?: boolean } = {},
): Promise<Response> {
  const payload = JSON.stringify(event);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const header = signatureHeader(payload, options.secret ?? TWIN_WEBHOOK_SECRET, timestamp);
  return gatewayFetch(`${PAY}/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: options.tamper === true ? payload.replace('"livemode"', '"livemode" ') : payload,
  });
}

describe('payment-gateway calls', () => {
  it('refuse guests (401) on every call but the webhook', async () => {
    for (const [method, path] of [
      ['POST', 'onboarding-minter/begin'],
      ['GET', 'onboarding-minter/check'],
      ['POST', 'onboarding-minter/refresh'],
      ['POST', 'login-account'],
      ['GET', 'getuserbalance'],
      ['POST', 'create-customer'],
      ['POST', 'create-setup-intent'],
      ['GET', 'payment-methods'],
      ['POST', 'remove-payment-method'],
      ['POST', 'default-payment-method'],
      ['POST', 'check-payment-methods'],
    ] as const) {
      const answer = await call(method, `${PAY}/${path}`, method === 'POST' ? { body: {} } : {});
      expect(answer.status, path).toBe(401);
    }
  });
});

describe('webhook signature', () => {
  const event = {
    id: 'evt_sigtest',
    object: 'event',
    type: 'account.updated',
    livemode: false,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: 'acct_none', object: 'account' } },
  };

  it('refuses a missing, tampered, expired or foreign signature with 400 and does nothing', async () => {
    const missing = await gatewayFetch(`${PAY}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(
      'payments.errors.webhook_signature',
    );
    expect((await signedPost(event, { tamper: true })).status).toBe(400);
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 360;
    expect((await signedPost(event, { timestamp: sixMinutesAgo })).status).toBe(400);
    expect((await signedPost(event, { secret: 'whsec_someone_else' })).status).toBe(400);
    // Signed right, the same event is taken (the account is no user's: nothing to do).
    const good = await signedPost(event);
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ data: { received: true, duplicate: false } });
  });

  it('acknowledges event types it does not handle', async () => {
    const answer = await signedPost({ ...event, id: 'evt_unknown_type', type: 'invoice.paid' });
    expect(answer.status).toBe(200);
  });
});

describe('seller onboarding (001 §4)', () => {
  let seller: TestUser;

  beforeAll(async () => {
    if (!enabled) return;
    seller = await newUser(RUN);
  });

  it('answers not onboarded before begin, and refuses a country Stripe Express does not serve', async (context) => {
    if (!enabled) context.skip();
    const check = await call('GET', `${PAY}/onboarding-minter/check`, {
      token: seller.accessToken,
    });
    expect(check.status).toBe(404);
    expect(check.json.error.code).toBe('onboarding.errors.not_onboarded');
    const brazil = await call('POST', `${PAY}/onboarding-minter/begin`, {
      token: seller.accessToken,
      body: { country: 'BR' },
    });
    expect(brazil.status).toBe(400);
    expect(brazil.json.error.code).toBe('onboarding.errors.invalid_country');
    const bad = await call('POST', `${PAY}/onboarding-minter/begin`, {
      token: seller.accessToken,
      body: { country: 'Great Britain' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields).toEqual({ country: 'forms.validation.country' });
    expect(await accountsOf(seller.id)).toEqual([]);
    expect((await ownProfile(seller)).onboarding_status).toBeNull();
  });

  it('opens one account whatever the concurrency, completes it on Stripe and makes a seller', async (context) => {
    if (!enabled) context.skip();
    // A double click and a second tab: three begins at once.
    const begins = await Promise.all(
      [0, 1, 2].map(() =>
        call<OnboardingLink>('POST', `${PAY}/onboarding-minter/begin`, {
          token: seller.accessToken,
          body: { country: 'gb' },
        }),
      ),
    );
    for (const begin of begins) {
      expect(begin.status).toBe(200);
      expect(begin.json.data.onboarding_status).toBe('continue_onboarding');
      expect(begin.json.data.url).toMatch(/\/setup\/s\/acct_\w+\//);
    }
    const accounts = await accountsOf(seller.id);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ country: 'GB', email: seller.email });
    expect((await ownProfile(seller)).onboarding_status).toBe('continue_onboarding');

    // Links are single use: the last one is fresh.
    const url = begins[2]?.json.data.url as string;
    const back = await submitOnboarding(url, 'complete');
    expect(back).toBe(`${twin().urls.http}/stripe/onboarding/minter`);

    // account.updated arrives as a webhook: the profile follows without any call of ours.
    const profile = await until(
      () => ownProfile(seller),
      (value) => value.onboarding_status === 'complete',
    );
    expect(profile).toMatchObject({ onboarding_status: 'complete', is_seller: true });
    const sellers = await call<SellerPage>('GET', '/api/users/sellers?limit=50');
    expect(sellers.json.data.items.map((item) => item.id)).toContain(seller.id);

    const check = await call<MinterCheckAnswer>('GET', `${PAY}/onboarding-minter/check`, {
      token: seller.accessToken,
    });
    expect(check.json.data).toEqual({
      onboarding_status: 'success',
      minter_completed: true,
      details_submitted: true,
      currently_due: [],
      pending_verification: [],
    });
    const refresh = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/refresh`, {
      token: seller.accessToken,
    });
    expect(refresh.json.data.onboarding_status).toBe('success');
    expect(refresh.json.data.url).toMatch(/\/express\/acct_\w+\//);
    const login = await call<{ url: string }>('POST', `${PAY}/login-account`, {
      token: seller.accessToken,
    });
    expect(login.status).toBe(200);
    expect((await fetch(login.json.data.url)).status).toBe(200);
    const balance = await call<UserBalance>('GET', `${PAY}/getuserbalance`, {
      token: seller.accessToken,
    });
    expect(balance.status).toBe(200);
    expect(balance.json.data.available.every((entry) => entry.amount === 0)).toBe(true);

    // Begin again (another country): the same account continues, no second one.
    const again = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/begin`, {
      token: seller.accessToken,
      body: { country: 'FR' },
    });
    expect(again.json.data.onboarding_status).toBe('success');
    expect(await accountsOf(seller.id)).toHaveLength(1);
  });

  it('keeps documents due as pending and verification as verifying, with no link to follow', async (context) => {
    if (!enabled) context.skip();
    const [due, verifying] = await Promise.all([newUser(RUN), newUser(RUN)]);
    for (const [user, choice, status] of [
      [due, 'documents_due', 'pending'],
      [verifying, 'pending_verification', 'verifying'],
    ] as const) {
      const begin = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/begin`, {
        token: user.accessToken,
        body: { country: 'US' },
      });
      await submitOnboarding(begin.json.data.url as string, choice);
      const refresh = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/refresh`, {
        token: user.accessToken,
      });
      expect(refresh.json.data).toEqual({ onboarding_status: status, url: null });
      const profile = await ownProfile(user);
      expect(profile).toMatchObject({ onboarding_status: status, is_seller: false });
      const login = await call('POST', `${PAY}/login-account`, { token: user.accessToken });
      expect(login.status).toBe(200);
    }
    // Left without submitting: login-account is refused until the details are in.
    const leaver = await newUser(RUN);
    const begin = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/begin`, {
      token: leaver.accessToken,
      body: { country: 'DE' },
    });
    await submitOnboarding(begin.json.data.url as string, 'leave');
    const login = await call('POST', `${PAY}/login-account`, { token: leaver.accessToken });
    expect(login.status).toBe(409);
    expect(login.json.error.code).toBe('onboarding.errors.not_complete');
  });

  it('handles each event once and in any order: 3 copies of every event, shuffled', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const begin = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/begin`, {
      token: user.accessToken,
      body: { country: 'NL' },
    });
    const accountId = (begin.json.data.url as string).match(/acct_\w+/)?.[0] as string;
    const accountEvents = async () =>
      (await stripe.events.list({ type: 'account.updated', limit: 100 })).data.filter(
        (event) => (event.data.object as { id: string }).id === accountId,
      );
    // Events sent before the hold were delivered (and handled) already.
    const before = new Set((await accountEvents()).map((event) => event.id));
    await stripeControl(`hold?match=${accountId}`, { method: 'POST' });
    // Documents due, then complete: two account.updated events, held by the twin.
    await submitOnboarding(begin.json.data.url as string, 'documents_due');
    const second = await call<OnboardingLink>('POST', `${PAY}/onboarding-minter/refresh`, {
      token: user.accessToken,
    });
    expect(second.json.data).toEqual({ onboarding_status: 'pending', url: null });
    // Stripe's form again (an account link the test makes, as the twin's dashboard would).
    const link = await stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: `${twin().urls.http}/stripe/payment/refresh`,
      return_url: `${twin().urls.http}/stripe/onboarding/minter`,
    });
    await submitOnboarding(link.url, 'complete');
    const events = (await accountEvents()).filter((event) => !before.has(event.id));
    expect(events.length).toBeGreaterThanOrEqual(2);

    // Our own copies: oldest state last, every event three times, all at once.
    const copies = [...events, ...events, ...events].reverse();
    const answers = await Promise.all(copies.map((event) => signedPost(event)));
    const bodies = await Promise.all(
      answers.map(async (answer) => ({ status: answer.status, body: await answer.text() })),
    );
    // Each event is kept once and answered at once; the copies are told they are duplicates.
    const fresh = bodies.filter((entry) => entry.body.includes('"duplicate":false'));
    expect(fresh).toHaveLength(events.length);
    for (const entry of bodies) expect(entry.status).toBe(200);
    const retried = await Promise.all(
      copies.map(async (event) => (await signedPost(event)).json()),
    );
    expect(retried.map((body) => JSON.stringify(body))).toEqual(
      retried.map(() => JSON.stringify({ data: { received: true, duplicate: true } })),
    );
    // Handled off the request path (the stripeEvents trigger), once each whatever the order.
    await until(
      () => ownProfile(user),
      (profile) => profile.onboarding_status === 'complete' && profile.is_seller === true,
    );

    // The twin's own deliveries of the held events, three copies each, shuffled: no effect left.
    const released = (await (
      await stripeControl(`release?match=${accountId}&copies=3&order=shuffled`, {
        method: 'POST',
      })
    ).json()) as { released: number };
    expect(released.released).toBeGreaterThanOrEqual(events.length * 3);
    expect(await ownProfile(user)).toMatchObject({
      onboarding_status: 'complete',
      is_seller: true,
    });
    // The seller heard each change once (001 §3 minter_pending; and when complete), newest first.
    const notices = await call<NotificationPage>('GET', `/api/notifications/${user.id}`, {
      token: user.accessToken,
    });
    expect(notices.json.data.notifications.map((notice) => notice.activity)).toEqual([
      'minter_completed',
      'minter_pending',
    ]);
  });
});

describe('saved cards (000 §7, 001 §3)', () => {
  let buyer: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    if (!enabled) return;
    [buyer, other] = await Promise.all([newUser(RUN), newUser(RUN)]);
  });

  const list = (user: TestUser) =>
    call<SavedCardList>('GET', `${PAY}/payment-methods`, { token: user.accessToken });

  async function addCard(user: TestUser, number: string): Promise<string> {
    const setup = await call<SetupSession>('POST', `${PAY}/create-setup-intent`, {
      token: user.accessToken,
      body: { type: 'card' },
    });
    expect(setup.status).toBe(200);
    return enterCard(setup.json.data.url, number);
  }

  it('starts with no card and one customer whatever the concurrency', async (context) => {
    if (!enabled) context.skip();
    expect((await list(buyer)).json.data).toEqual({ payment_methods: [] });
    const check = await call<PaymentMethodsCheck>('POST', `${PAY}/check-payment-methods`, {
      token: buyer.accessToken,
      body: {},
    });
    expect(check.json.data).toEqual({ has_payment_method: false, default_payment_method: null });
    const customers = await Promise.all(
      [0, 1, 2].map(() =>
        call<{ customer_id: string }>('POST', `${PAY}/create-customer`, {
          token: buyer.accessToken,
          body: {},
        }),
      ),
    );
    const ids = new Set(customers.map((answer) => answer.json.data.customer_id));
    expect(ids.size).toBe(1);
    const customer = await stripe.customers.retrieve([...ids][0] as string);
    expect(customer).toMatchObject({ email: buyer.email, metadata: { user_id: buyer.id } });
  });

  it('adds 4242 on the hosted page, lists it as the default, adds a second, switches, removes', async (context) => {
    if (!enabled) context.skip();
    const back = await addCard(buyer, '4242 4242 4242 4242');
    expect(back).toMatch(
      new RegExp(`^${twin().urls.http}/stripe/payment/success\\?session_id=cs_test_\\w+$`),
    );
    const first = (await list(buyer)).json.data.payment_methods;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      brand: 'visa',
      funding: 'credit',
      last4: '4242',
      exp_month: 12,
      exp_year: 2034,
      default: true,
      expired: false,
    });

    await addCard(buyer, '5555 5555 5555 4444');
    const both = (await list(buyer)).json.data.payment_methods;
    expect(both.map((card) => [card.last4, card.default])).toEqual([
      ['4444', false],
      ['4242', true],
    ]);
    const mastercard = both[0]?.id as string;
    const visa = both[1]?.id as string;

    // Another user can neither see, default nor remove them.
    for (const path of ['default-payment-method', 'remove-payment-method']) {
      const refused = await call('POST', `${PAY}/${path}`, {
        token: other.accessToken,
        body: { payment_method: visa },
      });
      expect(refused.status, path).toBe(404);
      expect(refused.json.error.code).toBe('payments.errors.card_not_found');
    }

    const switched = await call<SavedCardList>('POST', `${PAY}/default-payment-method`, {
      token: buyer.accessToken,
      body: { payment_method: mastercard },
    });
    expect(switched.json.data.payment_methods.map((card) => card.default)).toEqual([true, false]);

    // Removing the default makes the other one the default.
    const removed = await call<SavedCardList>('POST', `${PAY}/remove-payment-method`, {
      token: buyer.accessToken,
      body: { payment_method: mastercard },
    });
    expect(removed.json.data.payment_methods).toMatchObject([{ id: visa, default: true }]);
    const again = await call('POST', `${PAY}/remove-payment-method`, {
      token: buyer.accessToken,
      body: { payment_method: mastercard },
    });
    expect(again.status).toBe(404);
    const check = await call<PaymentMethodsCheck>('POST', `${PAY}/check-payment-methods`, {
      token: buyer.accessToken,
      body: {},
    });
    expect(check.json.data).toEqual({ has_payment_method: true, default_payment_method: visa });
    // The webhooks (setup_intent.succeeded, checkout.session.completed, payment_method.detached)
    // leave the same default.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await list(buyer)).json.data.payment_methods).toMatchObject([
      { id: visa, default: true },
    ]);
  });

  it('asks for authentication for 3155, and saves the card once approved', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const authenticate = await addCard(user, '4000 0025 0000 3155');
    expect(authenticate).toMatch(/\/authenticate\/seti_\w+$/);
    expect((await list(user)).json.data.payment_methods).toEqual([]);
    const approved = await fetch(authenticate, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'choice=complete',
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    const done = await fetch(approved.headers.get('location') as string, { redirect: 'manual' });
    expect(done.headers.get('location')).toMatch(/\/stripe\/payment\/success\?session_id=/);
    expect((await list(user)).json.data.payment_methods).toMatchObject([
      { last4: '3155', default: true },
    ]);
  });

  it('refuses a malformed card id and a setup of another type', async (context) => {
    if (!enabled) context.skip();
    const malformed = await call('POST', `${PAY}/remove-payment-method`, {
      token: buyer.accessToken,
      body: { payment_method: 'card_1' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.fields).toEqual({ payment_method: 'forms.validation.invalid' });
    const sepa = await call('POST', `${PAY}/create-setup-intent`, {
      token: buyer.accessToken,
      body: { type: 'sepa_debit' },
    });
    expect(sepa.status).toBe(400);
  });
});
