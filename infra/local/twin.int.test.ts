import { DescribeExecutionCommand, ListStateMachinesCommand, SFNClient } from '@aws-sdk/client-sfn';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { twin } from './test/twin-context';

/** The composed twin: every part answers where the handler environment says it is. */
const context = twin();

describe('the twin', () => {
  it('gives handlers the environment of functions/core/env.ts, pointing at its parts', () => {
    expect(context.env).toMatchObject({
      STAGE: 'local',
      TABLE_NAME: 'market',
      IMAGES_BUCKET: 'market-images',
      FILES_BUCKET: 'market-files',
      IMAGES_BASE_URL: '/media',
      WEB_ORIGIN: context.urls.http,
      DYNAMODB_ENDPOINT: context.urls.dynamodb,
      S3_ENDPOINT: context.urls.s3,
      WS_CONNECTIONS_ENDPOINT: context.urls.wsConnections,
      REALTIME_URL: context.urls.ws,
      SFN_ENDPOINT: context.urls.sfn,
      AWS_ENDPOINT_URL_SESV2: context.urls.outbox,
      AWS_ENDPOINT_URL_SNS: context.urls.outbox,
    });
  });

  it('points the official stripe SDK at the Stripe twin through the handler environment', async () => {
    const env = context.env;
    expect(env.STRIPE_SECRET_KEY).toMatch(/^sk_test_/);
    expect(env.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_/);
    expect(`http://${env.STRIPE_API_HOST}:${env.STRIPE_API_PORT}`).toBe(context.urls.stripe);
    const stripe = new Stripe(env.STRIPE_SECRET_KEY as string, {
      host: env.STRIPE_API_HOST as string,
      port: Number(env.STRIPE_API_PORT),
      protocol: env.STRIPE_API_PROTOCOL as 'http',
      maxNetworkRetries: 0,
    });
    const customer = await stripe.customers.create({ email: 'twin@example.com' });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      email: 'twin@example.com',
    });
    // /dev/stripe lists what the twin holds, like /dev/outbox.
    const payment = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'eur',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      transfer_group: 'order_twin',
    });
    const listing = (await (await fetch(`${context.urls.http}/dev/stripe.json`)).json()) as {
      customers: { id: string; email: string }[];
      payments: { id: string; status: string; transfer_group: string }[];
    };
    expect(listing.customers).toContainEqual(
      expect.objectContaining({ id: customer.id, email: 'twin@example.com' }),
    );
    expect(listing.payments).toContainEqual(
      expect.objectContaining({
        id: payment.id,
        status: 'succeeded',
        transfer_group: 'order_twin',
      }),
    );
    const page = await fetch(`${context.urls.http}/dev/stripe`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain(customer.id);
  });

  it('runs the live channel through the route table', async () => {
    const socket = new WebSocket(`${context.urls.ws}?userid=<annon>`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const reply = new Promise<Record<string, unknown>>((resolve) =>
      socket.once('message', (data) =>
        resolve(JSON.parse(String(data)) as Record<string, unknown>),
      ),
    );
    socket.send(JSON.stringify({ action: 'ping' }));
    expect(await reply).toMatchObject({ type: 'pong' });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close(1000);
    await closed;
    // Let $disconnect finish before the run ends and the twin stops.
    await new Promise((resolve) => setTimeout(resolve, 500));
  });

  it('answers Step Functions calls of the real SDK client', async () => {
    const sfn = new SFNClient({
      endpoint: context.urls.sfn,
      region: context.env.AWS_REGION as string,
      credentials: {
        accessKeyId: context.env.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: context.env.AWS_SECRET_ACCESS_KEY as string,
      },
    });
    await expect(
      sfn.send(
        new DescribeExecutionCommand({
          executionArn: 'arn:aws:states:us-east-1:000000000000:execution:none:none',
        }),
      ),
    ).rejects.toMatchObject({ name: 'ExecutionDoesNotExist' });
    // Operations the product does not call fail loudly.
    await expect(sfn.send(new ListStateMachinesCommand({}))).rejects.toMatchObject({
      name: 'UnknownOperationException',
    });
    sfn.destroy();
  });
});
