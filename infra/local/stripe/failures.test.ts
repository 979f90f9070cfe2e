import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen, readBody } from '../support';
import { renderStripePage, stripeListing } from './dev-page';
import { DISPUTE_FEE } from './disputes';
import { startStripeTwin, TWIN_APPLICATION, type StripeTwin } from './server';
import {
  clearFaults,
  closeDispute,
  deauthorize,
  dropWebhooks,
  emitEvent,
  holdWebhooks,
  injectFault,
  listFaults,
  onboardedAccount as onboardedAccountWith,
  openDispute,
  payOutAccount,
  savedCard as savedCardWith,
} from './testing';

/*
 * The failures the twin can play (README, "Failures the twin can play"), driven as the product's
 * integration tests will: the controls over HTTP (testing.ts), the effects through the official
 * SDK.
 */
let twin: StripeTwin;
/** No retries: what a single call sees. */
let stripe: Stripe;
/** The product's configuration: the SDK retries (with the same idempotency key). */
let retrying: Stripe;
const notEmulated: string[] = [];

beforeAll(async () => {
  twin = await startStripeTwin({
    errorLog: (line) => notEmulated.push(line),
    retryDelaysMs: [20, 40],
  });
  stripe = new Stripe(twin.secretKey, { ...twin.sdkConfig, maxNetworkRetries: 0 });
  retrying = new Stripe(twin.secretKey, { ...twin.sdkConfig, maxNetworkRetries: 2 });
});

afterAll(async () => {
  await twin.stop();
});

let sequence = 0;
/** A test's own order id, carried in metadata, that its faults match. */
const orderId = () => `order_${Date.now()}_${(sequence += 1)}`;

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const customersWith = (email: string) =>
  Object.values(twin.state().customers).filter((customer) => customer.email === email);

const intentsOf = (order: string) =>
  Object.values(twin.state().paymentIntents).filter((intent) => intent.metadata.order_id === order);

const available = (balance: Stripe.Balance, currency: string) =>
  balance.available.find((entry) => entry.currency === currency)?.amount ?? 0;

describe('faults on the API', () => {
  it("answers api_error with Stripe's 500, doing nothing; the SDK's retry then succeeds once", async () => {
    const order = orderId();
    await injectFault(twin.url, { fault: 'api_error', path: '/v1/customers', match: order });
    const error = await caught(stripe.customers.create({ email: `${order}@example.com` }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).toMatchObject({ statusCode: 500, rawType: 'api_error' });
    expect(customersWith(`${order}@example.com`)).toEqual([]);

    await injectFault(twin.url, { fault: 'api_error', path: '/v1/customers', match: order });
    const created = await retrying.customers.create(
      { email: `${order}@example.com` },
      { idempotencyKey: `create-${order}` },
    );
    // A 500 is not saved under its key: the retry ran the request, it is no replay.
    expect(created.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    expect(customersWith(`${order}@example.com`)).toHaveLength(1);
  });

  it("answers rate_limit with Stripe's 429 rate_limit error, which the SDK does not retry", async () => {
    const order = orderId();
    await injectFault(twin.url, { fault: 'rate_limit', method: 'POST', match: order, times: 2 });
    const error = await caught(stripe.customers.create({ email: `${order}@example.com` }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(error).toMatchObject({
      statusCode: 429,
      rawType: 'invalid_request_error',
      code: 'rate_limit',
      message:
        'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
    });
    // Without `Stripe-Should-Retry: true` the SDK leaves a 429 to the caller, retries or not.
    await expect(
      retrying.customers.create({ email: `${order}@example.com` }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(customersWith(`${order}@example.com`)).toEqual([]);
    expect(await listFaults(twin.url)).toEqual([]);
  });

  it('answers idempotency_conflict with the 409 of a concurrent request on the same key; the retry goes through', async () => {
    const order = orderId();
    const key = `conflict-${order}`;
    await injectFault(twin.url, { fault: 'idempotency_conflict', match: order });
    const error = await caught(
      stripe.customers.create({ email: `${order}@example.com` }, { idempotencyKey: key }),
    );
    // The SDK (v1 API) makes a 409 a StripeAPIError; Stripe's body says what it is.
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).toMatchObject({
      statusCode: 409,
      rawType: 'idempotency_error',
      code: 'idempotency_key_in_use',
    });
    expect((error as Error).message).toContain(
      `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}.`,
    );
    expect(customersWith(`${order}@example.com`)).toEqual([]);

    await injectFault(twin.url, { fault: 'idempotency_conflict', match: order });
    const created = await retrying.customers.create(
      { email: `${order}@example.com` },
      { idempotencyKey: key },
    );
    expect(created.email).toBe(`${order}@example.com`);
    expect(customersWith(`${order}@example.com`)).toHaveLength(1);
  });

  it('drops the connection before anything is done: a connection error, nothing made', async () => {
    const order = orderId();
    // The SDK retries a reset connection once even with retries off: two drops to see it fail.
    await injectFault(twin.url, { fault: 'drop', match: order, times: 2 });
    const error = await caught(stripe.customers.create({ email: `${order}@example.com` }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(customersWith(`${order}@example.com`)).toEqual([]);

    await injectFault(twin.url, { fault: 'drop', match: order });
    await retrying.customers.create({ email: `${order}@example.com` });
    expect(customersWith(`${order}@example.com`)).toHaveLength(1);
  });

  it('loses the answer of a PaymentIntent it made: the retry with the same key replays it, one payment, one charge', async () => {
    const { customer, card } = await savedCardWith(stripe, 'pm_card_visa');
    const order = orderId();
    const pay = (client: Stripe, key: string) =>
      client.paymentIntents.create(
        {
          amount: 2500,
          currency: 'eur',
          customer,
          payment_method: card,
          off_session: true,
          confirm: true,
          transfer_group: order,
          metadata: { order_id: order },
        },
        { idempotencyKey: key },
      );
    await injectFault(twin.url, {
      fault: 'lost',
      method: 'POST',
      path: '/v1/payment_intents',
      match: order,
    });
    const paid = await pay(retrying, `pay-${order}`);
    expect(paid.status).toBe('succeeded');
    expect(paid.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(intentsOf(order).map((intent) => intent.id)).toEqual([paid.id]);
    expect((await stripe.charges.list({ payment_intent: paid.id })).data).toHaveLength(1);
    const succeeded = await stripe.events.list({ type: 'payment_intent.succeeded', limit: 100 });
    expect(
      succeeded.data.filter((event) => (event.data.object as { id: string }).id === paid.id),
    ).toHaveLength(1);

    // Retries off, every answer lost: the caller sees a connection error, yet the payment is made.
    const second = orderId();
    await injectFault(twin.url, { fault: 'lost', match: second, times: 2 });
    const error = await caught(
      stripe.customers.create({ email: `${second}@example.com` }, { idempotencyKey: second }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(customersWith(`${second}@example.com`)).toHaveLength(1);
  });

  it('holds the answer past the client’s timeout: a connection error, the request carried out; a retry replays it', async () => {
    const order = orderId();
    await injectFault(twin.url, { fault: 'timeout', match: order, delayMs: 10_000 });
    const error = await caught(
      stripe.customers.create({ email: `${order}@example.com` }, { timeout: 200 }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(customersWith(`${order}@example.com`)).toHaveLength(1);

    const again = orderId();
    await injectFault(twin.url, { fault: 'timeout', match: again, delayMs: 10_000 });
    const created = await retrying.customers.create(
      { email: `${again}@example.com` },
      { timeout: 300, idempotencyKey: `timeout-${again}` },
    );
    expect(created.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(customersWith(`${again}@example.com`)).toHaveLength(1);
  });

  it('trips only the requests its path, method and match fit, `times` times, oldest fault first', async () => {
    const mine = orderId();
    const theirs = orderId();
    const fault = await injectFault(twin.url, {
      fault: 'api_error',
      method: 'POST',
      path: '/v1/customers/*',
      match: mine,
      times: 2,
    });
    expect(fault).toMatchObject({ fault: 'api_error', times: 2, left: 2, match: mine });
    const customer = await stripe.customers.create({ email: `${mine}@example.com` });
    // Another test's order, and another path, go through.
    await stripe.customers.update(customer.id, { metadata: { order_id: theirs } });
    await stripe.customers.retrieve(customer.id);
    await expect(
      stripe.customers.update(customer.id, { metadata: { order_id: mine } }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect((await listFaults(twin.url)).find((entry) => entry.id === fault.id)?.left).toBe(1);
    await expect(
      stripe.customers.update(customer.id, { metadata: { order_id: mine } }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect((await listFaults(twin.url)).some((entry) => entry.id === fault.id)).toBe(false);
    const updated = await stripe.customers.update(customer.id, { metadata: { order_id: mine } });
    expect(updated.metadata.order_id).toBe(mine);

    // The object's own id scopes a fault too; the oldest fitting fault is used first.
    const older = await injectFault(twin.url, { fault: 'rate_limit', match: customer.id });
    await injectFault(twin.url, { fault: 'api_error', match: customer.id });
    await expect(stripe.customers.retrieve(customer.id)).rejects.toBeInstanceOf(
      Stripe.errors.StripeRateLimitError,
    );
    expect((await listFaults(twin.url)).map((entry) => entry.id)).not.toContain(older.id);
    expect(await clearFaults(twin.url, customer.id)).toBe(1);
    expect(await listFaults(twin.url)).toEqual([]);
  });

  it('leaves the /dev controls and the hosted pages alone, and refuses a malformed fault', async () => {
    await injectFault(twin.url, { fault: 'drop', times: 5 });
    try {
      expect((await listFaults(twin.url))[0]?.left).toBe(5);
      const receipt = await fetch(`${twin.url}/receipts/ch_nothere`);
      expect(receipt.status).toBe(404);
      expect((await fetch(`${twin.url}/dev/webhooks/deliveries`)).status).toBe(200);
      expect((await listFaults(twin.url))[0]?.left).toBe(5);
    } finally {
      expect(await clearFaults(twin.url)).toBe(1);
    }
    await expect(injectFault(twin.url, { fault: 'meltdown' as never, match: 'x' })).rejects.toThrow(
      /fault must be one of api_error/,
    );
    // The query form works as the JSON one does.
    const byQuery = await fetch(
      `${twin.url}/dev/faults?fault=timeout&path=/v1/transfers/*/reversals&delayMs=50&match=q1`,
      { method: 'POST' },
    );
    expect(await byQuery.json()).toMatchObject({
      fault: 'timeout',
      path: '/v1/transfers/*/reversals',
      delayMs: 50,
      left: 1,
    });
    expect(await clearFaults(twin.url, 'q1')).toBe(1);
  });
});

describe('connected accounts’ balances: payouts, and a transfer reversal Stripe refuses', () => {
  it('pays out an account’s balance, after which a reversal is refused balance_insufficient and nothing changes', async () => {
    const { customer, card } = await savedCardWith(stripe, 'pm_card_visa');
    const seller = await onboardedAccountWith(stripe);
    const intent = await stripe.paymentIntents.create({
      amount: 5000,
      currency: 'eur',
      customer,
      payment_method: card,
      off_session: true,
      confirm: true,
    });
    const transfer = await stripe.transfers.create({
      amount: 4000,
      currency: 'eur',
      destination: seller,
      source_transaction: intent.latest_charge as string,
    });
    const sellerBalance = async () =>
      available(await stripe.balance.retrieve({}, { stripeAccount: seller }), 'eur');
    expect(await sellerBalance()).toBe(4000);

    const [payout] = await payOutAccount(twin.url, seller);
    expect(payout).toMatchObject({
      object: 'payout',
      amount: 4000,
      currency: 'eur',
      status: 'paid',
      automatic: true,
      type: 'bank_account',
    });
    expect(await sellerBalance()).toBe(0);
    const paid = await stripe.events.list({ type: 'payout.paid' }, { stripeAccount: seller });
    expect(
      paid.data.map((event) => [event.account, (event.data.object as Stripe.Payout).id]),
    ).toEqual([[seller, payout?.id]]);
    expect(
      (await stripe.payouts.retrieve(payout?.id as string, {}, { stripeAccount: seller })).status,
    ).toBe('paid');
    await expect(stripe.payouts.retrieve(payout?.id as string)).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });

    const platformBefore = available(await stripe.balance.retrieve(), 'eur');
    const refused = await caught(stripe.transfers.createReversal(transfer.id, { amount: 1000 }));
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, code: 'balance_insufficient' });
    expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({
      amount_reversed: 0,
      reversed: false,
    });
    expect(await sellerBalance()).toBe(0);
    expect(available(await stripe.balance.retrieve(), 'eur')).toBe(platformBefore);
    const reversed = await stripe.events.list({ type: 'transfer.reversed', limit: 100 });
    expect(
      reversed.data.some((event) => (event.data.object as Stripe.Transfer).id === transfer.id),
    ).toBe(false);
  });

  it('a failed payout returns the money to the account (payout.failed, account_closed), which the product re-reads', async () => {
    const { customer, card } = await savedCardWith(stripe, 'pm_card_visa');
    const seller = await onboardedAccountWith(stripe);
    const intent = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'eur',
      customer,
      payment_method: card,
      off_session: true,
      confirm: true,
    });
    const transfer = await stripe.transfers.create({
      amount: 1200,
      currency: 'eur',
      destination: seller,
      source_transaction: intent.latest_charge as string,
    });
    const [failed] = await payOutAccount(twin.url, seller, { fail: true });
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'account_closed',
      failure_message: 'The bank account has been closed.',
    });
    const [event] = (await stripe.events.list({ type: 'payout.failed' }, { stripeAccount: seller }))
      .data;
    expect(event?.account).toBe(seller);
    const reread = await stripe.payouts.retrieve(
      (event?.data.object as Stripe.Payout).id,
      {},
      { stripeAccount: seller },
    );
    expect(reread).toMatchObject({ status: 'failed', failure_code: 'account_closed' });
    expect(reread.failure_balance_transaction).toMatch(/^txn_/);
    expect(available(await stripe.balance.retrieve({}, { stripeAccount: seller }), 'eur')).toBe(
      1200,
    );
    const listed = await stripe.payouts.list({ status: 'failed' }, { stripeAccount: seller });
    expect(listed.data.map((entry) => entry.id)).toEqual([reread.id]);
    // The money is back: the reversal goes through now.
    expect((await stripe.transfers.createReversal(transfer.id)).amount).toBe(1200);

    const fresh = await stripe.accounts.create({
      type: 'express',
      country: 'ES',
      capabilities: { transfers: { requested: true } },
    });
    await expect(payOutAccount(twin.url, fresh.id)).rejects.toThrow(/Payouts are not enabled/);
  });
});

/** A succeeded payment of `amount` EUR cents with its charge. */
async function payment(amount: number, order = orderId()) {
  const { customer, card } = await savedCardWith(stripe, 'pm_card_visa');
  const intent = await stripe.paymentIntents.create({
    amount,
    currency: 'eur',
    customer,
    payment_method: card,
    off_session: true,
    confirm: true,
    transfer_group: order,
    metadata: { order_id: order },
  });
  return { intent, charge: intent.latest_charge as string };
}

/** The events of `type` about object `id`, oldest first. */
async function eventsAbout(type: string, id: string): Promise<Stripe.Event[]> {
  const events = await stripe.events.list({ type, limit: 100 });
  return events.data.filter((event) => (event.data.object as { id?: string }).id === id).reverse();
}

describe('disputes', () => {
  it('opens a dispute in Stripe’s lifecycle: funds and fee withdrawn, evidence staged then submitted, won', async () => {
    const { intent, charge } = await payment(4000);
    const platformBefore = available(await stripe.balance.retrieve(), 'eur');
    const opened = await openDispute(twin.url, { payment_intent: intent.id });
    expect(opened).toMatchObject({
      object: 'dispute',
      amount: 4000,
      currency: 'eur',
      charge,
      payment_intent: intent.id,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
      evidence_details: { has_evidence: false, submission_count: 0, past_due: false },
    });
    expect(opened.id).toMatch(/^du_/);
    // Due by the end (23:59:59 UTC) of the 7th day.
    const dueBy = new Date((opened.evidence_details.due_by as number) * 1000);
    expect(dueBy.toISOString()).toMatch(/T23:59:59\.000Z$/);
    expect((dueBy.getTime() - opened.created * 1000) / 86_400_000).toBeGreaterThan(7);
    expect((dueBy.getTime() - opened.created * 1000) / 86_400_000).toBeLessThan(8);
    expect(opened.balance_transactions).toMatchObject([
      {
        object: 'balance_transaction',
        type: 'adjustment',
        reporting_category: 'dispute',
        amount: -4000,
        fee: DISPUTE_FEE,
        net: -4000 - DISPUTE_FEE,
        source: opened.id,
        fee_details: [{ amount: DISPUTE_FEE, type: 'stripe_fee', description: 'Dispute fee' }],
      },
    ]);
    expect(available(await stripe.balance.retrieve(), 'eur')).toBe(
      platformBefore - 4000 - DISPUTE_FEE,
    );
    expect((await stripe.charges.retrieve(charge)).disputed).toBe(true);
    expect((await stripe.charges.list({ payment_intent: intent.id })).data[0]?.disputed).toBe(true);
    const opening = [
      ...(await eventsAbout('charge.dispute.created', opened.id)),
      ...(await eventsAbout('charge.dispute.funds_withdrawn', opened.id)),
    ];
    expect(opening.map((event) => event.type)).toEqual([
      'charge.dispute.created',
      'charge.dispute.funds_withdrawn',
    ]);
    const ids = twin.state().events.map((event) => event.id);
    expect(ids.indexOf(opening[0]?.id as string)).toBeLessThan(
      ids.indexOf(opening[1]?.id as string),
    );
    expect((opening[0]?.data.object as Stripe.Dispute).balance_transactions).toHaveLength(1);

    // A charged-back payment cannot be refunded.
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: 'charge_disputed',
      statusCode: 400,
    });

    const staged = await stripe.disputes.update(opened.id, {
      evidence: { customer_name: 'Ana Buyer', product_description: 'Numbered print 3/50' },
      metadata: { order_id: 'o-d1' },
      submit: false,
    });
    expect(staged).toMatchObject({
      status: 'needs_response',
      evidence: { customer_name: 'Ana Buyer', product_description: 'Numbered print 3/50' },
      evidence_details: { has_evidence: true, submission_count: 0 },
      metadata: { order_id: 'o-d1' },
    });
    const submitted = await stripe.disputes.update(opened.id, {
      evidence: { shipping_tracking_number: 'TRACK-1' },
    });
    expect(submitted).toMatchObject({
      status: 'under_review',
      evidence: { customer_name: 'Ana Buyer', shipping_tracking_number: 'TRACK-1' },
      evidence_details: { submission_count: 1, submission_method: 'manual' },
    });
    const updates = await eventsAbout('charge.dispute.updated', opened.id);
    expect(updates).toHaveLength(2);
    expect(updates[1]?.data.previous_attributes).toMatchObject({ status: 'needs_response' });
    await expect(
      stripe.disputes.update(opened.id, { evidence: { customer_name: 'Late' } }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      stripe.disputes.update(opened.id, { evidence: { favourite_colour: 'x' } as never }),
    ).rejects.toMatchObject({ code: 'parameter_unknown' });
    // Under review it can no longer be accepted.
    await expect(stripe.disputes.close(opened.id)).rejects.toMatchObject({ statusCode: 400 });

    const won = await closeDispute(twin.url, opened.id, 'won');
    expect(won.status).toBe('won');
    expect(won.balance_transactions.map((entry) => [entry.reporting_category, entry.net])).toEqual([
      ['dispute', -4000 - DISPUTE_FEE],
      ['dispute_reversal', 4000],
    ]);
    // The amount comes back, the dispute fee does not.
    expect(available(await stripe.balance.retrieve(), 'eur')).toBe(platformBefore - DISPUTE_FEE);
    const closing = [
      ...(await eventsAbout('charge.dispute.funds_reinstated', opened.id)),
      ...(await eventsAbout('charge.dispute.closed', opened.id)),
    ];
    expect(closing.map((event) => (event.data.object as Stripe.Dispute).status)).toEqual([
      'under_review',
      'won',
    ]);
    expect((await stripe.disputes.retrieve(opened.id)).status).toBe('won');
    await expect(closeDispute(twin.url, opened.id, 'lost')).rejects.toThrow(/already closed/);
  });

  it('the merchant accepts a dispute (lost); a test can lose one; lists filter and page', async () => {
    const first = await payment(1500);
    const second = await payment(2500);
    const partial = await openDispute(twin.url, {
      charge: first.charge,
      reason: 'product_not_received',
      amount: 1000,
    });
    expect(partial).toMatchObject({ amount: 1000, reason: 'product_not_received' });
    const accepted = await stripe.disputes.close(partial.id);
    expect(accepted.status).toBe('lost');
    expect(await eventsAbout('charge.dispute.closed', partial.id)).toHaveLength(1);
    await expect(stripe.disputes.close(partial.id)).rejects.toMatchObject({ statusCode: 400 });

    const lostByBank = await openDispute(twin.url, { payment_intent: second.intent.id });
    expect((await closeDispute(twin.url, lostByBank.id, 'lost')).status).toBe('lost');
    expect(await eventsAbout('charge.dispute.funds_reinstated', lostByBank.id)).toEqual([]);

    await expect(openDispute(twin.url, { charge: first.charge })).rejects.toThrow(
      /already disputed/,
    );
    await expect(openDispute(twin.url, { charge: second.charge, reason: 'bored' })).rejects.toThrow(
      /Invalid reason/,
    );

    expect((await stripe.disputes.list({ charge: first.charge })).data.map((d) => d.id)).toEqual([
      partial.id,
    ]);
    expect(
      (await stripe.disputes.list({ payment_intent: second.intent.id })).data.map((d) => d.id),
    ).toEqual([lostByBank.id]);
    const page = await stripe.disputes.list({ limit: 1 });
    expect(page).toMatchObject({ has_more: true, data: [{ id: lostByBank.id }] });
    const next = await stripe.disputes.list({ limit: 1, starting_after: lostByBank.id });
    expect(next.data.map((d) => d.id)).toEqual([partial.id]);
    const back = await stripe.disputes.list({ limit: 1, ending_before: partial.id });
    expect(back.data.map((d) => d.id)).toEqual([lostByBank.id]);
    await expect(stripe.disputes.retrieve('du_nothere')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });
});

describe('balance transactions', () => {
  it('records every money movement on its holder; /v1/balance is their sum; the objects point at them', async () => {
    // A twin of its own: balances no other test touches.
    const own = await startStripeTwin({ errorLog: (line) => notEmulated.push(line) });
    try {
      const sdk = new Stripe(own.secretKey, { ...own.sdkConfig, maxNetworkRetries: 0 });
      const { customer, card } = await savedCardWith(sdk, 'pm_card_visa');
      const seller = await onboardedAccountWith(sdk);
      const pay = (amount: number) =>
        sdk.paymentIntents.create({
          amount,
          currency: 'eur',
          customer,
          payment_method: card,
          off_session: true,
          confirm: true,
        });
      const first = await pay(10_000);
      const second = await pay(3000);
      const refund = await sdk.refunds.create({ payment_intent: first.id, amount: 1000 });
      const transfer = await sdk.transfers.create({
        amount: 6000,
        currency: 'eur',
        destination: seller,
        source_transaction: first.latest_charge as string,
      });
      const reversal = await sdk.transfers.createReversal(transfer.id, { amount: 1000 });
      const dispute = await openDispute(own.url, { payment_intent: second.id });
      await closeDispute(own.url, dispute.id, 'won');
      const [paidOut] = await payOutAccount(own.url, seller);
      await sdk.transfers.create({ amount: 500, currency: 'eur', destination: seller });
      const [failed] = await payOutAccount(own.url, seller, { fail: 'account_frozen' });

      const all = async (stripeAccount?: string) =>
        sdk.balanceTransactions
          .list({ limit: 3 }, stripeAccount === undefined ? {} : { stripeAccount })
          .autoPagingToArray({ limit: 1000 });
      const platform = await all();
      const account = await all(seller);
      const sum = (entries: Stripe.BalanceTransaction[]) =>
        entries.reduce((total, entry) => total + entry.net, 0);
      expect(sum(platform)).toBe(available(await sdk.balance.retrieve(), 'eur'));
      expect(sum(account)).toBe(
        available(await sdk.balance.retrieve({}, { stripeAccount: seller }), 'eur'),
      );
      expect(sum(platform)).toBe(10_000 + 3000 - 1000 - 6000 + 1000 - DISPUTE_FEE - 500);
      expect(sum(account)).toBe(500);
      // Newest first, each in Stripe's type and reporting category.
      expect(platform.map((entry) => [entry.type, entry.reporting_category, entry.net])).toEqual([
        ['transfer', 'transfer', -500],
        ['adjustment', 'dispute_reversal', 3000],
        ['adjustment', 'dispute', -3000 - DISPUTE_FEE],
        ['transfer_refund', 'transfer_reversal', 1000],
        ['transfer', 'transfer', -6000],
        ['refund', 'refund', -1000],
        ['charge', 'charge', 3000],
        ['charge', 'charge', 10_000],
      ]);
      expect(account.map((entry) => [entry.type, entry.reporting_category, entry.net])).toEqual([
        ['payout_failure', 'payout_reversal', 500],
        ['payout', 'payout', -500],
        ['payment', 'charge', 500],
        ['payout', 'payout', -5000],
        ['payment_refund', 'refund', -1000],
        ['payment', 'charge', 6000],
      ]);

      const charge = await sdk.charges.retrieve(first.latest_charge as string);
      const retrieve = (id: unknown, stripeAccount?: string) =>
        sdk.balanceTransactions.retrieve(
          id as string,
          {},
          stripeAccount === undefined ? {} : { stripeAccount },
        );
      expect(await retrieve(charge.balance_transaction)).toMatchObject({
        type: 'charge',
        source: charge.id,
        amount: 10_000,
      });
      expect(await retrieve(refund.balance_transaction)).toMatchObject({
        type: 'refund',
        source: refund.id,
      });
      expect(await retrieve(transfer.balance_transaction)).toMatchObject({
        type: 'transfer',
        source: transfer.id,
      });
      expect(await retrieve(reversal.balance_transaction)).toMatchObject({
        type: 'transfer_refund',
        source: reversal.id,
      });
      expect(await retrieve(paidOut?.balance_transaction, seller)).toMatchObject({
        type: 'payout',
        source: paidOut?.id,
      });
      expect(await retrieve(failed?.failure_balance_transaction, seller)).toMatchObject({
        type: 'payout_failure',
        source: failed?.id,
      });
      // Another holder's transaction is not found.
      await expect(retrieve(paidOut?.balance_transaction)).rejects.toMatchObject({
        statusCode: 404,
      });

      // Filters: type, source, payout, created; paging both ways; Stripe's limit of 100.
      expect(
        (await sdk.balanceTransactions.list({ type: 'charge' })).data.map((entry) => entry.amount),
      ).toEqual([3000, 10_000]);
      expect(
        (await sdk.balanceTransactions.list({ source: dispute.id })).data.map(
          (entry) => entry.reporting_category,
        ),
      ).toEqual(['dispute_reversal', 'dispute']);
      const inPayout = await sdk.balanceTransactions.list(
        { payout: paidOut?.id as string },
        { stripeAccount: seller },
      );
      expect(inPayout.data.map((entry) => entry.type)).toEqual([
        'payout',
        'payment_refund',
        'payment',
      ]);
      const now = Math.floor(Date.now() / 1000);
      expect((await sdk.balanceTransactions.list({ created: { gt: now + 60 } })).data).toEqual([]);
      expect(
        (await sdk.balanceTransactions.list({ created: { gte: now - 60 }, limit: 100 })).data,
      ).toHaveLength(platform.length);
      const newest = platform[0] as Stripe.BalanceTransaction;
      const older = await sdk.balanceTransactions.list({ limit: 2, starting_after: newest.id });
      expect(older.data.map((entry) => entry.id)).toEqual([platform[1]?.id, platform[2]?.id]);
      const newer = await sdk.balanceTransactions.list({
        limit: 2,
        ending_before: platform[2]?.id as string,
      });
      expect(newer).toMatchObject({ has_more: false });
      expect(newer.data.map((entry) => entry.id)).toEqual([newest.id, platform[1]?.id]);
      await expect(sdk.balanceTransactions.list({ limit: 101 })).rejects.toMatchObject({
        statusCode: 400,
        param: 'limit',
      });
    } finally {
      await own.stop();
    }
  });
});

describe('events for reconciliation', () => {
  it('lists by type, types[] and created, pages both ways, and keeps 30 days by the twin’s clock', async () => {
    let clock = Date.now();
    const clocked = await startStripeTwin({
      now: () => new Date(clock),
      errorLog: (line) => notEmulated.push(line),
    });
    try {
      const sdk = new Stripe(clocked.secretKey, { ...clocked.sdkConfig, maxNetworkRetries: 0 });
      const old = await sdk.customers.create({ email: 'old@example.com' });
      clock += 20 * 86_400_000;
      const recent = await sdk.customers.create({ email: 'recent@example.com' });
      await sdk.customers.update(recent.id, { name: 'Recent' });
      const all = (await sdk.events.list({ limit: 100 })).data;
      expect(all.map((event) => event.type)).toEqual([
        'customer.updated',
        'customer.created',
        'customer.created',
      ]);
      const createdOnly = await sdk.events.list({ types: ['customer.created'] });
      expect(createdOnly.data.map((event) => (event.data.object as Stripe.Customer).id)).toEqual([
        recent.id,
        old.id,
      ]);
      expect((await sdk.events.list({ type: 'customer.*' })).data).toHaveLength(3);
      const since = Math.floor(clock / 1000) - 60;
      expect(
        (await sdk.events.list({ created: { gte: since } })).data.map((event) => event.type),
      ).toEqual(['customer.updated', 'customer.created']);
      expect((await sdk.events.list({ created: { lt: since } })).data).toHaveLength(1);
      const first = await sdk.events.list({ limit: 1 });
      expect(first.has_more).toBe(true);
      const rest = await sdk.events.list({ limit: 2, starting_after: first.data[0]?.id as string });
      expect(rest.data.map((event) => event.id)).toEqual([all[1]?.id, all[2]?.id]);
      const before = await sdk.events.list({ ending_before: all[2]?.id as string });
      expect(before.data.map((event) => event.id)).toEqual([all[0]?.id, all[1]?.id]);
      await expect(sdk.events.list({ limit: 101 })).rejects.toMatchObject({ param: 'limit' });
      await expect(
        sdk.events.list({ type: 'customer.created', types: ['customer.updated'] }),
      ).rejects.toMatchObject({ statusCode: 400 });

      // Stripe keeps events 30 days: the first one is gone 31 days after it.
      const oldEvent = all[2]?.id as string;
      clock += 11 * 86_400_000;
      expect((await sdk.events.list({ limit: 100 })).data.map((event) => event.id)).toEqual([
        all[0]?.id,
        all[1]?.id,
      ]);
      await expect(sdk.events.retrieve(oldEvent)).rejects.toMatchObject({ statusCode: 404 });
    } finally {
      await clocked.stop();
    }
  });
});

describe('webhooks lost for good, deauthorization, events of any type', () => {
  let endpoint: Server;
  const received: string[] = [];

  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      void readBody(req, 1_000_000).then((body) => {
        received.push(String(body));
        res.writeHead(200).end();
      });
    });
    const url = `http://127.0.0.1:${await listen(endpoint, 0)}/api/payment-gateway/webhook`;
    twin.setWebhookEndpoint({ url, secret: 'whsec_failures' });
  });

  afterAll(async () => {
    twin.setWebhookEndpoint(undefined);
    await closeServer(endpoint);
  });

  it('drops held deliveries for good: recorded failed, never sent, still listed in /v1/events', async () => {
    const customer = await stripe.customers.create({ email: 'dropped@example.com' });
    await twin.webhooksSettled();
    await holdWebhooks(twin.url, customer.id);
    await stripe.customers.update(customer.id, { name: 'Missed' });
    const [updated] = await eventsAbout('customer.updated', customer.id);
    expect(await dropWebhooks(twin.url, customer.id)).toBe(1);
    await twin.webhooksSettled();
    expect(received.some((body) => body.includes(updated?.id as string))).toBe(false);
    const deliveries = (await (await fetch(`${twin.url}/dev/webhooks/deliveries`)).json()) as {
      deliveries: { eventId: string; status: string }[];
    };
    expect(deliveries.deliveries.filter((entry) => entry.eventId === updated?.id)).toMatchObject([
      { status: 'failed' },
    ]);
    expect((await stripe.events.retrieve(updated?.id as string)).type).toBe('customer.updated');
    expect(twin.state().undelivered[updated?.id as string]).toBeUndefined();
    // No longer held: the next event goes out.
    await stripe.customers.update(customer.id, { name: 'Seen' });
    await twin.webhooksSettled();
    expect(received.some((body) => body.includes('"Seen"'))).toBe(true);
  });

  it('deauthorizes an account: the Connect event, then Stripe’s 403 and refused transfers', async () => {
    const seller = await onboardedAccountWith(stripe);
    const event = await deauthorize(twin.url, seller);
    expect(event).toMatchObject({
      type: 'account.application.deauthorized',
      account: seller,
      data: { object: { id: TWIN_APPLICATION.id, object: 'application' } },
    });
    await twin.webhooksSettled();
    expect(received.some((body) => body.includes(event.id))).toBe(true);
    const denied = await caught(stripe.balance.retrieve({}, { stripeAccount: seller }));
    expect(denied).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(denied).toMatchObject({ statusCode: 403, code: 'account_invalid' });
    await expect(stripe.accounts.retrieve(seller)).rejects.toBeInstanceOf(
      Stripe.errors.StripePermissionError,
    );
    await expect(
      stripe.transfers.create({ amount: 100, currency: 'eur', destination: seller }),
    ).rejects.toMatchObject({ code: 'resource_missing', param: 'destination' });
    await expect(deauthorize(twin.url, seller)).rejects.toThrow(/already deauthorized/);
  });

  it('emits an event of any type about an existing object, read from the twin’s state', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'eur', unit_amount: 700, product_data: { name: 'x' } },
          quantity: 1,
        },
      ],
      success_url: 'http://app.example/ok',
      metadata: { order_id: 'async-1' },
    });
    const event = await emitEvent(twin.url, 'checkout.session.async_payment_succeeded', session.id);
    expect(event.type).toBe('checkout.session.async_payment_succeeded');
    expect(event.data.object).toMatchObject({ id: session.id, metadata: { order_id: 'async-1' } });
    const [listed] = await eventsAbout('checkout.session.async_payment_succeeded', session.id);
    expect(listed?.id).toBe(event.id);
    await twin.webhooksSettled();
    expect(received.some((body) => body.includes(event.id))).toBe(true);
    await expect(emitEvent(twin.url, 'charge.updated', 'ch_nothere')).rejects.toThrow(/404/);
    await expect(emitEvent(twin.url, 'Not An Event', session.id)).rejects.toThrow(/400/);
  });
});

describe('the failures on /dev/stripe', () => {
  it('lists disputes with their due date, payouts and the active faults', async () => {
    const { intent } = await payment(2200);
    const dispute = await openDispute(twin.url, { payment_intent: intent.id, reason: 'duplicate' });
    const fault = await injectFault(twin.url, {
      fault: 'timeout',
      path: '/v1/transfers',
      match: 'dev-page',
      delayMs: 1000,
    });
    try {
      const listing = stripeListing(twin.state(), twin.deliveries(), twin.faults());
      expect(listing.disputes.find((entry) => entry.id === dispute.id)).toMatchObject({
        status: 'needs_response',
        amount: 2200,
        reason: 'duplicate',
        due_by: dispute.evidence_details.due_by,
      });
      expect(listing.faults).toMatchObject([{ id: fault.id, left: 1, delayMs: 1000 }]);
      expect(listing.payouts.length).toBeGreaterThan(0);
      const page = renderStripePage(listing);
      expect(page).toContain('<h2>Disputes</h2>');
      expect(page).toContain(dispute.id);
      expect(page).toContain('22.00 EUR');
      expect(page).toContain(
        `${new Date((dispute.evidence_details.due_by as number) * 1000).toISOString().slice(0, 10)} 23:59 UTC`,
      );
      expect(page).toContain('<h2>Payouts</h2>');
      expect(page).toContain('failed (account_closed)');
      expect(page).toContain('timeout (1000 ms)');
      expect(page).toContain('1 of 1');
    } finally {
      await clearFaults(twin.url, 'dev-page');
    }
  });
});

describe('a state file from before these features', () => {
  it('loads with defaults for the new keys, and the new features work on it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stripe-old-state-'));
    const persistFile = path.join(dir, 'stripe.json');
    // The keys a twin kept before balance transactions, disputes, payouts and deauthorization.
    writeFileSync(
      persistFile,
      JSON.stringify({
        paymentIntents: {},
        charges: {},
        refunds: {},
        transfers: {},
        balances: { platform: { eur: { available: 5000, pending: 0 } } },
        checkoutSessions: {},
        checkoutExtras: {},
        accounts: {},
        onboarding: {},
        customers: {},
        paymentMethods: {},
        cards: {},
        setupIntents: {},
        events: [],
        undelivered: {},
        links: {},
        idempotency: {},
      }),
    );
    const restarted = await startStripeTwin({ persistFile });
    try {
      const sdk = new Stripe(restarted.secretKey, { ...restarted.sdkConfig, maxNetworkRetries: 0 });
      expect(available(await sdk.balance.retrieve(), 'eur')).toBe(5000);
      expect((await sdk.balanceTransactions.list()).data).toEqual([]);
      expect((await sdk.disputes.list()).data).toEqual([]);
      const seller = await onboardedAccountWith(sdk);
      await sdk.transfers.create({ amount: 2000, currency: 'eur', destination: seller });
      const [payout] = await payOutAccount(restarted.url, seller);
      expect(payout?.amount).toBe(2000);
      expect((await sdk.payouts.list({}, { stripeAccount: seller })).data).toHaveLength(1);
      expect((await sdk.balanceTransactions.list()).data.map((entry) => entry.type)).toEqual([
        'transfer',
      ]);
    } finally {
      await restarted.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
