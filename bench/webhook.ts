import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import Stripe from 'stripe';
import { TWIN_WEBHOOK_SECRET } from '../infra/local/stripe/server';
import { signatureHeader } from '../infra/local/stripe/webhooks';
import type { Twin } from '../infra/local/twin';
import { startDynamoCounter } from './dynamo-counter';
import { logInWithPins } from './login';
import { ms, percentile, table } from './stats';
import { json } from './http';

/**
 * Stripe's webhook through the local gateway (POST /api/payment-gateway/webhook): wall time and
 * DynamoDB requests per event, for the three cases a deployment sees, interleaved in one run:
 * - `account.updated` of a seller (signature check, claim, account read from Stripe, profile
 *   status compared, done),
 * - `setup_intent.succeeded` of a saved card (claim, intent and customer read from Stripe, cards
 *   listed, default settled, live event, done),
 * - a redelivery of an event already handled (claim refused, one read).
 * The twin's own deliveries are held, so only the bench's signed posts reach the handler.
 */

export async function benchWebhook(twin: Twin, runs: number) {
  const counter = await startDynamoCounter(twin.urls.dynamodb);
  const cognito = new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint: twin.urls.cognito,
  });
  const api = twin.urls.http;
  twin.stripe.holdWebhooks();
  try {
    const stamp = `hook${Date.now().toString(36)}`;
    const user = {
      user_option: 'individual',
      nick: stamp,
      email: `${stamp}@example.com`,
      phone: `+4477${String(Date.now()).slice(-8)}`,
      name: 'Bench',
      surname: 'Seller',
      terms: true,
    };
    await json<{ id: string }>(
      await fetch(`${api}/api/users/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user }),
      }),
    );
    const { accessToken } = await logInWithPins(twin, cognito, twin.cognito.clientId, user);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` };
    const begun = await json<{ url: string }>(
      await fetch(`${api}/api/payment-gateway/onboarding-minter/begin`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ country: 'GB' }),
      }),
    );
    const accountId = begun.url.match(/acct_\w+/)?.[0] as string;
    const { customer_id: customerId } = await json<{ customer_id: string }>(
      await fetch(`${api}/api/payment-gateway/create-customer`, {
        method: 'POST',
        headers,
        body: '{}',
      }),
    );
    const stripe = new Stripe(twin.env.STRIPE_SECRET_KEY as string, twin.stripe.sdkConfig);
    const intent = await stripe.setupIntents.create({
      customer: customerId,
      payment_method: 'pm_card_visa',
      confirm: true,
      usage: 'off_session',
    });

    const post = (event: object) => {
      const payload = JSON.stringify(event);
      return fetch(`${api}/api/payment-gateway/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signatureHeader(
            payload,
            TWIN_WEBHOOK_SECRET,
            Math.floor(Date.now() / 1000),
          ),
        },
        body: payload,
      });
    };
    const event = (type: string, object: { id: string; object: string }, id: string) => ({
      id,
      object: 'event',
      api_version: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    });

    // The handlers run in this process: new clients pick the counting endpoint up.
    process.env.DYNAMODB_ENDPOINT = counter.url;
    const kinds = ['account.updated', 'setup_intent.succeeded', 'redelivery'] as const;
    const times: Record<(typeof kinds)[number], number[]> = {
      'account.updated': [],
      'setup_intent.succeeded': [],
      redelivery: [],
    };
    const requests: Record<(typeof kinds)[number], number[]> = {
      'account.updated': [],
      'setup_intent.succeeded': [],
      redelivery: [],
    };
    const handled: object[] = [];
    for (let run = 0; run < runs + 3; run += 1) {
      for (const kind of kinds) {
        const body =
          kind === 'account.updated'
            ? event(kind, { id: accountId, object: 'account' }, `evt_bench_a${run}`)
            : kind === 'setup_intent.succeeded'
              ? event(kind, { id: intent.id, object: 'setup_intent' }, `evt_bench_s${run}`)
              : (handled[run % Math.max(1, handled.length)] as object);
        counter.reset();
        const started = performance.now();
        const answer = await post(body);
        const elapsed = performance.now() - started;
        const text = await answer.text();
        if (answer.status !== 200) throw new Error(`${kind} answered ${answer.status}: ${text}`);
        if (kind !== 'redelivery') handled.push(body);
        else if (!text.includes('"duplicate":true')) throw new Error(`not a duplicate: ${text}`);
        // The first three rounds warm the handlers up (module load, clients, connections).
        if (run < 3) continue;
        times[kind].push(elapsed);
        requests[kind].push(counter.total());
      }
    }

    console.log(`\n9. Stripe webhook through the local gateway (${runs} events of each kind)\n`);
    console.log(
      table(
        ['event', 'p50', 'p95', 'DynamoDB requests (median)'],
        kinds.map((kind) => [
          kind,
          ms(percentile(times[kind], 50)),
          ms(percentile(times[kind], 95)),
          percentile(requests[kind], 50),
        ]),
      ),
    );
    return Object.fromEntries(
      kinds.map((kind) => [
        kind,
        {
          p50Ms: percentile(times[kind], 50),
          p95Ms: percentile(times[kind], 95),
          dynamoRequests: percentile(requests[kind], 50),
        },
      ]),
    );
  } finally {
    twin.stripe.releaseWebhooks();
    cognito.destroy();
    await counter.stop();
  }
}
