import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Twin } from '../infra/local/twin';
import { STRIPE_ENV } from '../functions/core/env';
import { putFinishedItem } from '../functions/items/testing/items';
import { listingContract } from '../functions/offerings/testing/listing';
import { ordersDeps } from '../functions/orders/index';
import type { CardPayment, Order } from '../shared/schemas/orders';
import { startDynamoCounter } from './dynamo-counter';
import { account, supportAccount } from './market';
import { bearer, HOUR, json, listApproved, submitForm, waitFor } from './http';
import { median, ms, percentile, table } from './stats';

/**
 * Checkout (issue 12), on the twin in this process: a buyer books one copy of a fixed-price
 * digital offering (POST …/assigntoken2preorder), pays with the saved card (POST
 * payment-gateway/create-payment-intent), and the order reaches `fulfilled` (the copy moved, the
 * seller's share transferred by the payment's webhook). Timed from the booking call to the paid
 * order, as the buyer waits for it, interleaved with the market page (POST
 * users/-/offering/getofferings) so both see the same machine. The webhooks are held while an
 * order is timed and delivered between orders: in AWS they run in another function after the
 * buyer has the answer; on the twin they would share this one process. Then, for a few orders,
 * the DynamoDB requests and write units and the Stripe API calls one order makes, webhooks
 * included, through counting proxies.
 */

/** A counting proxy in front of the Stripe twin: `METHOD /v1/<resource>` per request. */
async function startStripeCounter(target: string) {
  const counts = new Map<string, number>();
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const resource = (req.url ?? '').split('?')[0]?.replace(/\/(\w+_)[\w]+/g, '/{id}') ?? '';
    const key = `${req.method ?? ''} ${resource}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    counts: () => Object.fromEntries([...counts.entries()].sort()),
    total: () => [...counts.values()].reduce((sum, count) => sum + count, 0),
    reset: () => counts.clear(),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchCheckout(twin: Twin, orders: number) {
  const api = twin.urls.http;
  const stamp = `co${Date.now().toString(36)}`;
  const seller = await account(twin, stamp, `${stamp}@example.com`);
  const buyer = await account(twin, `${stamp}b`, `${stamp}b@example.com`);
  const admin = await supportAccount(twin);
  const auth = bearer;

  // The seller onboards on Stripe's (the twin's) hosted form; the buyer saves a 4242 card.
  const begin = await json<{ url: string }>(
    await fetch(`${api}/api/payment-gateway/onboarding-minter/begin`, {
      method: 'POST',
      headers: auth(seller.token),
      body: JSON.stringify({ country: 'es' }),
    }),
  );
  await submitForm(begin.url, { choice: 'complete' });
  await waitFor(async () => {
    const check = await json<{ minter_completed: boolean }>(
      await fetch(`${api}/api/payment-gateway/onboarding-minter/check`, {
        headers: auth(seller.token),
      }),
    );
    return check.minter_completed;
  });
  const setup = await json<{ url: string }>(
    await fetch(`${api}/api/payment-gateway/create-setup-intent`, {
      method: 'POST',
      headers: auth(buyer.token),
      body: JSON.stringify({ type: 'card' }),
    }),
  );
  await submitForm(setup.url, {
    email: 'bench@example.com',
    number: '4242424242424242',
    expiry: '12 / 34',
    cvc: '123',
    name: 'Bench Buyer',
  });

  // One offering of many copies; a market page's worth of others keeps the page comparison fair.
  const copies = orders + 20;
  const item = await putFinishedItem({
    creator: seller,
    copies: Math.min(copies, 200),
    product_type: 'digital',
  });
  const offering = listingContract(item.id, {
    copies: Math.min(copies, 200),
    price: 1500,
    end_at: new Date(Date.now() + 72 * HOUR).toISOString(),
  });
  const offeringId = await listApproved(api, { seller, admin }, offering, `${stamp}-list`);

  const orderRepo = ordersDeps().repo;
  const statusOf = async (orderId: string) => (await orderRepo.get(orderId))?.status;
  const marketPage = async () => {
    const started = performance.now();
    const response = await fetch(`${api}/api/users/-/offering/getofferings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ types: ['digital'], category: 'art', offer: 'buy' }),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`market page ${response.status}`);
    return performance.now() - started;
  };
  const bookMs: number[] = [];
  const payMs: number[] = [];
  const checkout = async () => {
    const started = performance.now();
    const order = await json<Order>(
      await fetch(`${api}/api/users/${buyer.id}/offering/assigntoken2preorder`, {
        method: 'POST',
        headers: auth(buyer.token),
        body: JSON.stringify({ order: { offeringid: offeringId, quantity: 1 } }),
      }),
    );
    const booked = performance.now();
    const paid = await json<CardPayment>(
      await fetch(`${api}/api/payment-gateway/create-payment-intent`, {
        method: 'POST',
        headers: auth(buyer.token),
        body: JSON.stringify({ order_id: order.id }),
      }),
    );
    if (paid.status !== 'succeeded') throw new Error(`payment ${paid.status}`);
    const payTook = performance.now() - booked;
    await waitFor(async () => (await statusOf(order.id)) === 'fulfilled');
    return {
      ms: performance.now() - started,
      book: booked - started,
      pay: payTook,
      orderId: order.id,
    };
  };

  const WARMUP = 3;
  const checkoutMs: number[] = [];
  const pageMs: number[] = [];
  for (let run = 0; run < orders; run += 1) {
    // The payment's webhooks run after the buyer has the answer (in AWS: another function). The
    // twin runs them in this process, so they are held while an order is timed and delivered
    // between orders; they are counted below.
    twin.stripe.holdWebhooks();
    const { ms: took, book, pay } = await checkout();
    twin.stripe.releaseWebhooks();
    await twin.stripe.webhooksSettled();
    const page = await marketPage();
    if (run >= WARMUP) {
      checkoutMs.push(took);
      bookMs.push(book);
      payMs.push(pay);
      pageMs.push(page);
    }
  }
  // Let the webhooks of the timed orders finish before counting.
  await twin.stripe.webhooksSettled();

  const dynamo = await startDynamoCounter(twin.urls.dynamodb);
  const stripe = await startStripeCounter(twin.urls.stripe);
  const saved = { dynamo: process.env.DYNAMODB_ENDPOINT, stripe: process.env[STRIPE_ENV.port] };
  process.env.DYNAMODB_ENDPOINT = dynamo.url;
  process.env[STRIPE_ENV.port] = String(stripe.port);
  const COUNTED = 5;
  try {
    dynamo.reset();
    stripe.reset();
    for (let run = 0; run < COUNTED; run += 1) {
      await checkout();
      await twin.stripe.webhooksSettled();
    }
    const perOrder = {
      dynamoRequests: dynamo.total() / COUNTED,
      writeUnits: dynamo.writeUnits() / COUNTED,
      dynamoOperations: Object.fromEntries(
        Object.entries(dynamo.counts()).map(([name, count]) => [name, count / COUNTED]),
      ),
      stripeCalls: stripe.total() / COUNTED,
      stripeOperations: Object.fromEntries(
        Object.entries(stripe.counts()).map(([name, count]) => [name, count / COUNTED]),
      ),
    };
    console.log(
      `\n14. Checkout: book one copy → pay with the saved card → paid, the copy moved (${checkoutMs.length} orders, each followed by a market page)\n`,
    );
    console.log(
      table(
        ['measure', 'p50', 'p95'],
        [
          [
            'checkout, book → paid (as the buyer waits)',
            ms(percentile(checkoutMs, 50)),
            ms(percentile(checkoutMs, 95)),
          ],
          ['  of which the booking call', ms(percentile(bookMs, 50)), ms(percentile(bookMs, 95))],
          ['  of which the payment call', ms(percentile(payMs, 50)), ms(percentile(payMs, 95))],
          ['market page of 50 (gateway)', ms(percentile(pageMs, 50)), ms(percentile(pageMs, 95))],
        ],
      ),
    );
    const ratio = percentile(checkoutMs, 95) / percentile(pageMs, 95);
    console.log(`\n   checkout p95 / market page p95 = ${ratio.toFixed(2)}× (goal ≤ 5×)`);
    console.log(
      `   medians: ${ms(median(checkoutMs))} vs ${ms(median(pageMs))} (${(median(checkoutMs) / median(pageMs)).toFixed(2)}×)`,
    );
    console.log(
      `   per order (mean of ${COUNTED}, webhooks included): ${perOrder.dynamoRequests.toFixed(1)} DynamoDB requests, ${perOrder.writeUnits.toFixed(1)} write units, ${perOrder.stripeCalls.toFixed(1)} Stripe API calls`,
    );
    console.log(`   DynamoDB: ${JSON.stringify(perOrder.dynamoOperations)}`);
    console.log(`   Stripe: ${JSON.stringify(perOrder.stripeOperations)}`);
    return {
      checkoutP50: percentile(checkoutMs, 50),
      checkoutP95: percentile(checkoutMs, 95),
      pageP50: percentile(pageMs, 50),
      pageP95: percentile(pageMs, 95),
      ratioP95: ratio,
      perOrder,
    };
  } finally {
    if (saved.dynamo === undefined) Reflect.deleteProperty(process.env, 'DYNAMODB_ENDPOINT');
    else process.env.DYNAMODB_ENDPOINT = saved.dynamo;
    if (saved.stripe === undefined) Reflect.deleteProperty(process.env, STRIPE_ENV.port);
    else process.env[STRIPE_ENV.port] = saved.stripe;
    await Promise.all([dynamo.stop(), stripe.stop()]);
  }
}
