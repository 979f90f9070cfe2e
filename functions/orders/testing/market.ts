import Stripe from 'stripe';
import { expect } from 'vitest';
import { STRIPE_ENV } from '../../core/env';
import { gatewayFetch, twin } from '../../../infra/local/test/twin-context';
import { call, type TestUser } from '../../accounts/testing/session';
import { listingContract } from '../../offerings/testing/listing';
import type { OrdersDeps } from '../ports';
import type {
  ListingContract,
  ListingProgress,
  OfferingDetail,
} from '../../../shared/schemas/offerings';

/**
 * For integration tests of buying (issue 12): a seller onboarded on the Stripe twin's hosted form
 * (a real connected account that can receive transfers), a buyer's card saved on its hosted
 * Checkout page, and an offering listed and approved through the real listing workflow.
 */
const PAY = '/api/payment-gateway';

export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Submits a hosted form of the twin (onboarding, Checkout, 3D Secure); answers the redirect. */
export async function submitForm(url: string, fields: Record<string, string>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('location') ?? '';
}

/** Enters a card on Stripe's (the twin's) hosted Checkout page. */
export function enterCard(url: string, number: string): Promise<string> {
  return submitForm(url, {
    email: 'buyer@example.com',
    number,
    expiry: '12 / 34',
    cvc: '123',
    name: 'Jo Buyer',
  });
}

/** Onboards the user as a seller on the twin (Connect Express, verified) and waits for it. */
export async function onboardSeller(user: TestUser, country = 'es'): Promise<void> {
  const begin = await call<{ url: string }>('POST', `${PAY}/onboarding-minter/begin`, {
    token: user.accessToken,
    body: { country },
  });
  expect(begin.status).toBe(200);
  await submitForm(begin.json.data.url, { choice: 'complete' });
  await until(
    () =>
      call<{ minter_completed: boolean }>('GET', `${PAY}/onboarding-minter/check`, {
        token: user.accessToken,
      }),
    (answer) => answer.json.data?.minter_completed === true,
  );
}

/** Saves a card for the user through the hosted setup page. */
export async function addCard(user: TestUser, number = '4242424242424242'): Promise<void> {
  const setup = await call<{ url: string }>('POST', `${PAY}/create-setup-intent`, {
    token: user.accessToken,
    body: { type: 'card' },
  });
  expect(setup.status).toBe(200);
  const next = await enterCard(setup.json.data.url, number);
  if (/\/authenticate\/seti_/.test(next)) {
    // A card that asks for authentication (3155): the buyer approves it at the bank.
    const back = await submitForm(next, { choice: 'complete' });
    await fetch(back, { redirect: 'manual' });
  }
  await until(
    () =>
      call<{ payment_methods: { id: string; default: boolean }[] }>(
        'GET',
        `${PAY}/payment-methods`,
        { token: user.accessToken },
      ),
    (answer) => (answer.json.data?.payment_methods ?? []).some((card) => card.default),
  );
}

/** Lists the item's copies at a fixed price and has support approve it; answers the offering. */
export async function listApproved(
  seller: TestUser,
  admin: TestUser,
  itemId: string,
  extra: Partial<ListingContract> = {},
): Promise<OfferingDetail> {
  const offering = listingContract(itemId, extra);
  const response = await gatewayFetch(`/api/users/${seller.id}/offering/create`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${seller.accessToken}`,
      'idempotency-key': `list-${itemId}-${offering.copies}`,
    },
    body: JSON.stringify({ offering }),
  });
  expect(response.status).toBe(202);
  const { data } = (await response.json()) as { data: ListingProgress };
  const offeringId = data.offeringId;
  await until(
    () =>
      call<ListingProgress>('POST', `/api/users/${seller.id}/offering/create/status`, {
        token: seller.accessToken,
        body: { offeringId },
      }),
    (answer) => answer.json.data?.step === 'done',
  );
  const approved = await until(
    () =>
      call<OfferingDetail>('POST', `/api/admin/offerings/${offeringId}/validate`, {
        token: admin.accessToken,
        body: { decision: 'approve' },
      }),
    (answer) => answer.status === 200,
  );
  expect(approved.status).toBe(200);
  return (
    await until(
      () =>
        call<OfferingDetail>(
          'POST',
          `/api/users/${seller.id}/offering/getofferingbyid/${offeringId}`,
          { token: seller.accessToken, body: {} },
        ),
      (answer) => answer.json.data?.status === 'validated',
    )
  ).json.data;
}

/** The twin's Stripe state, as /dev/stripe.json lists it. */
export async function stripeState(): Promise<{
  payments: {
    id: string;
    amount: number;
    /** Refunded so far (minor units). */
    refunded: number;
    transfer_group: string | null;
    status: string;
  }[];
  transfers: {
    id: string;
    amount: number;
    destination: string;
    transfer_group: string | null;
    source_transaction: string | null;
    amount_reversed?: number;
  }[];
}> {
  return (await (await gatewayFetch('/dev/stripe.json')).json()) as never;
}

/** Holds or releases the Stripe twin's webhook deliveries whose JSON contains `match`. */
export async function webhooks(
  action: 'hold' | 'release',
  match: string,
  options: { copies?: number; order?: 'shuffled' } = {},
): Promise<void> {
  const query = new URLSearchParams({ match });
  if (options.copies !== undefined) query.set('copies', String(options.copies));
  if (options.order !== undefined) query.set('order', options.order);
  const response = await fetch(`${twin().urls.stripe}/dev/webhooks/${action}?${query.toString()}`, {
    method: 'POST',
  });
  expect(response.status).toBeLessThan(300);
}

/** The official SDK pointed at the Stripe twin (what a buyer's browser and Stripe do, in tests). */
export function twinStripe(): Stripe {
  const env = process.env;
  return new Stripe(env[STRIPE_ENV.secretKey] ?? '', {
    host: env[STRIPE_ENV.host] ?? 'localhost',
    port: Number(env[STRIPE_ENV.port]),
    protocol: env[STRIPE_ENV.protocol] === 'https' ? 'https' : 'http',
  });
}

/**
 * A payment made for an order outside our calls, as Stripe would complete it (a Checkout page
 * left open past the booking): a confirmed PaymentIntent with the order's metadata.
 */
export async function payOutside(
  orderId: string,
  userId: string,
  amount: number,
  currency = 'eur',
): Promise<Stripe.PaymentIntent> {
  return twinStripe().paymentIntents.create({
    amount,
    currency,
    payment_method: 'pm_card_visa',
    confirm: true,
    transfer_group: orderId,
    metadata: { order_id: orderId, user_id: userId, kind: 'full' },
  });
}

/** The booking-expiry workflow's task, for tests that run an order's deadline at a chosen time. */
export { expireBooking } from '../booking';

/**
 * The orders dependencies with one holding read as it is between the steps of another move of it
 * (here: gone): the first read of `ownerId`'s holding answers nothing, later ones the table.
 * `missed()` says whether that read happened.
 */
export function holdingMissedOnce(
  real: OrdersDeps,
  ownerId: string,
): { deps: OrdersDeps; missed: () => boolean } {
  let early = true;
  const deps: OrdersDeps = {
    ...real,
    items: {
      ...real.items,
      async getHolding(owner, itemId) {
        if (owner === ownerId && early) {
          early = false;
          return undefined;
        }
        return real.items.getHolding(owner, itemId);
      },
    },
  };
  return { deps, missed: () => !early };
}
