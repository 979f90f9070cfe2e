import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS_COUNTRIES } from '../../../shared/onboarding';
import { closeServer, listen, readBody, REPO_ROOT } from '../support';
import { renderStripePage, stripeListing } from './dev-page';
import { startStripeTwin, type StripeTwin } from './server';
import {
  authenticateOnPage,
  onboardedAccount as onboardedAccountWith,
  deauthorize,
  onboardOnPage,
  openDispute,
  payOutAccount,
  RETURN_URL,
  savedCard as savedCardWith,
} from './testing';

/*
 * The Stripe twin driven by the official `stripe` SDK, pointed at it by configuration only, as the
 * product's functions will be.
 */
let twin: StripeTwin;
let stripe: Stripe;
const notEmulated: string[] = [];

beforeAll(async () => {
  twin = await startStripeTwin({
    errorLog: (line) => notEmulated.push(line),
    retryDelaysMs: [20, 40],
  });
  stripe = new Stripe(twin.secretKey, { ...twin.sdkConfig, maxNetworkRetries: 0 });
});

afterAll(async () => {
  await twin.stop();
});

/** Onboarding on the hosted page, which shows its form and sends the browser back when answered. */
async function onboard(accountId: string, choice: string) {
  const { link, page, submitted } = await onboardOnPage(stripe, accountId, choice);
  expect(page.status).toBe(200);
  expect(page.text).toContain('Set up payouts');
  expect(submitted.status).toBe(303);
  expect(submitted.headers.get('location')).toBe(RETURN_URL);
  return link;
}

describe('Connect Express accounts', () => {
  it('gives an account the capabilities asked for: transfers only never takes payments', async () => {
    const account = await stripe.accounts.create({
      type: 'express',
      country: 'ES',
      capabilities: { transfers: { requested: true } },
    });
    expect(account.capabilities).toEqual({ transfers: 'inactive' });
    await onboard(account.id, 'complete');
    const done = await stripe.accounts.retrieve(account.id);
    expect(done.capabilities).toEqual({ transfers: 'active' });
    expect(done.charges_enabled).toBe(false);
    expect(done.payouts_enabled).toBe(true);
    await expect(stripe.accounts.create({ type: 'express', country: 'ES' })).rejects.toMatchObject({
      statusCode: 400,
      param: 'capabilities',
    });
  });

  it('creates an account that must onboard, and onboarding on the hosted page completes it', async () => {
    const account = await stripe.accounts.create({
      type: 'express',
      country: 'GB',
      email: 'seller@example.com',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      metadata: { userId: 'u1' },
    });
    expect(account.id).toMatch(/^acct_/);
    expect(account.capabilities).toEqual({ card_payments: 'inactive', transfers: 'inactive' });
    expect(account.charges_enabled).toBe(false);
    expect(account.details_submitted).toBe(false);
    expect(account.default_currency).toBe('gbp');
    expect(account.requirements?.currently_due).toContain('external_account');
    expect(account.metadata).toEqual({ userId: 'u1' });

    const link = await onboard(account.id, 'complete');
    const done = await stripe.accounts.retrieve(account.id);
    expect(done.charges_enabled).toBe(true);
    expect(done.payouts_enabled).toBe(true);
    expect(done.details_submitted).toBe(true);
    expect(done.requirements?.currently_due).toEqual([]);

    // An account link is single use: opened again, it sends the browser to the refresh URL.
    const again = await fetch(link.url, { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('http://app.example/stripe/payment/refresh');

    const updates = await stripe.events.list({ type: 'account.updated', limit: 100 });
    const last = updates.data.find(
      (event) => (event.data.object as Stripe.Account).id === account.id,
    );
    expect((last?.data.object as Stripe.Account).charges_enabled).toBe(true);
    expect(last?.data.previous_attributes).toMatchObject({ charges_enabled: false });
    expect(last?.account).toBe(account.id);

    const login = await stripe.accounts.createLoginLink(account.id);
    expect((await fetch(login.url)).status).toBe(200);
    expect(await stripe.accounts.del(account.id)).toEqual({
      id: account.id,
      object: 'account',
      deleted: true,
    });
  });

  it('leaves documents due, or verification pending, as the page is answered', async () => {
    const due = await stripe.accounts.create({
      type: 'express',
      country: 'ES',
      capabilities: { transfers: { requested: true } },
    });
    await onboard(due.id, 'documents_due');
    const dueNow = await stripe.accounts.retrieve(due.id);
    expect(dueNow.details_submitted).toBe(true);
    expect(dueNow.charges_enabled).toBe(false);
    expect(dueNow.requirements?.currently_due).toEqual(['individual.verification.document']);

    const pending = await stripe.accounts.create({
      type: 'express',
      country: 'US',
      capabilities: { transfers: { requested: true } },
    });
    await onboard(pending.id, 'pending_verification');
    const pendingNow = await stripe.accounts.retrieve(pending.id);
    expect(pendingNow.requirements?.currently_due).toEqual([]);
    expect(pendingNow.requirements?.pending_verification).toEqual([
      'individual.verification.document',
    ]);
    expect(pendingNow.charges_enabled).toBe(false);
  });

  it('opens an account in every country the product offers in its country step', async () => {
    for (const country of EXPRESS_COUNTRIES) {
      const account = await stripe.accounts.create({
        type: 'express',
        country,
        capabilities: { transfers: { requested: true } },
      });
      expect(account.country).toBe(country);
    }
  });

  it("refuses a country Express does not serve, and a login link before onboarding, in Stripe's error shape", async () => {
    const unsupported = await stripe.accounts
      .create({ type: 'express', country: 'KP' })
      .catch((error: unknown) => error);
    expect(unsupported).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unsupported).toMatchObject({
      code: 'country_unsupported',
      param: 'country',
      statusCode: 400,
    });
    expect((unsupported as Stripe.errors.StripeError).requestId).toMatch(/^req_/);

    const fresh = await stripe.accounts.create({
      type: 'express',
      country: 'FR',
      capabilities: { transfers: { requested: true } },
    });
    await expect(stripe.accounts.createLoginLink(fresh.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
    });
  });
});

describe('customers, saved cards and setup intents', () => {
  it('saves a test card through a SetupIntent, lists it, makes it the default and detaches it', async () => {
    const customer = await stripe.customers.create({
      email: 'buyer@example.com',
      metadata: { userId: 'b1' },
    });
    const setupIntent = await stripe.setupIntents.create({
      customer: customer.id,
      usage: 'off_session',
    });
    expect(setupIntent.status).toBe('requires_payment_method');
    expect(setupIntent.client_secret).toMatch(new RegExp(`^${setupIntent.id}_secret_`));

    const confirmed = await stripe.setupIntents.confirm(setupIntent.id, {
      payment_method: 'pm_card_visa',
    });
    expect(confirmed.status).toBe('succeeded');
    const cards = await stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    expect(cards.data).toHaveLength(1);
    const card = cards.data[0] as Stripe.PaymentMethod;
    expect(card.id).toBe(confirmed.payment_method);
    expect(card.card).toMatchObject({ brand: 'visa', last4: '4242', funding: 'credit' });
    expect(card.customer).toBe(customer.id);

    const withDefault = await stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: card.id },
    });
    expect(withDefault.invoice_settings.default_payment_method).toBe(card.id);

    const detached = await stripe.paymentMethods.detach(card.id);
    expect(detached.customer).toBeNull();
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      invoice_settings: { default_payment_method: null },
    });
    expect(
      (await stripe.paymentMethods.list({ customer: customer.id, type: 'card' })).data,
    ).toEqual([]);
    const events = await stripe.events.list({ type: 'payment_method.detached', limit: 5 });
    expect(events.data[0]?.data.previous_attributes).toEqual({ customer: customer.id });
  });

  it("declines Stripe's declined test cards as a card error, and asks for authentication for 3155", async () => {
    const customer = await stripe.customers.create({});
    const declined = await stripe.setupIntents
      .create({ customer: customer.id, payment_method: 'pm_card_chargeDeclined', confirm: true })
      .catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({
      code: 'card_declined',
      decline_code: 'generic_decline',
      statusCode: 402,
    });

    const intent = await stripe.setupIntents.create({ customer: customer.id });
    const insufficient = await stripe.setupIntents
      .confirm(intent.id, { payment_method: 'pm_card_chargeDeclinedInsufficientFunds' })
      .catch((error: unknown) => error);
    expect(insufficient).toMatchObject({ decline_code: 'insufficient_funds' });
    expect((await stripe.setupIntents.retrieve(intent.id)).last_setup_error).toMatchObject({
      code: 'card_declined',
    });

    const authentication = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    });
    expect(authentication.status).toBe('requires_action');
    expect(authentication.next_action?.type).toBe('redirect_to_url');
  });
});

const savedCard = (token: string) => savedCardWith(stripe, token);

async function authenticate(url: string, choice: 'complete' | 'fail') {
  expect(await (await fetch(url)).text()).toContain('3D Secure 2 test page');
  return authenticateOnPage(url, choice);
}

const onboardedAccount = () => onboardedAccountWith(stripe);

const available = (balance: Stripe.Balance, currency: string) =>
  balance.available.find((entry) => entry.currency === currency)?.amount ?? 0;

describe('charges, refunds, transfers and balances', () => {
  it('charges a saved card off session, pays the seller from that charge, reverses and refunds it', async () => {
    const { customer, card } = await savedCard('pm_card_visa');
    const seller = await onboardedAccount();
    const before = available(await stripe.balance.retrieve(), 'eur');
    const intent = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'eur',
      customer,
      payment_method: card,
      off_session: true,
      confirm: true,
      transfer_group: 'order_1',
      metadata: { orderId: 'o1' },
    });
    expect(intent.status).toBe('succeeded');
    expect(intent.amount_received).toBe(2500);
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect(available(await stripe.balance.retrieve(), 'eur')).toBe(before + 2500);

    const transfer = await stripe.transfers.create({
      amount: 2000,
      currency: 'eur',
      destination: seller,
      transfer_group: 'order_1',
      source_transaction: intent.latest_charge as string,
    });
    expect(transfer.destination).toBe(seller);
    expect(available(await stripe.balance.retrieve({}, { stripeAccount: seller }), 'eur')).toBe(
      2000,
    );
    expect(available(await stripe.balance.retrieve(), 'eur')).toBe(before + 500);
    // The charge funds at most what is left of it.
    await expect(
      stripe.transfers.create({
        amount: 600,
        currency: 'eur',
        destination: seller,
        source_transaction: intent.latest_charge as string,
      }),
    ).rejects.toMatchObject({ code: 'amount_too_large' });

    const reversal = await stripe.transfers.createReversal(transfer.id, { amount: 500 });
    expect(reversal.amount).toBe(500);
    expect((await stripe.transfers.retrieve(transfer.id)).amount_reversed).toBe(500);
    expect(available(await stripe.balance.retrieve({}, { stripeAccount: seller }), 'eur')).toBe(
      1500,
    );

    const partial = await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 });
    expect(partial).toMatchObject({ amount: 1000, status: 'succeeded', payment_intent: intent.id });
    await expect(
      stripe.refunds.create({ payment_intent: intent.id, amount: 1600 }),
    ).rejects.toMatchObject({ code: 'amount_too_large' });
    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(1500);
    await expect(stripe.refunds.create({ payment_intent: intent.id })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
  });

  it("refuses a transfer to an account that cannot receive one, or beyond the platform's balance", async () => {
    const fresh = await stripe.accounts.create({
      type: 'express',
      country: 'FR',
      capabilities: { transfers: { requested: true } },
    });
    await expect(
      stripe.transfers.create({ amount: 100, currency: 'eur', destination: fresh.id }),
    ).rejects.toMatchObject({ code: 'insufficient_capabilities_for_transfer' });
    const seller = await onboardedAccount();
    await expect(
      stripe.transfers.create({ amount: 10_000_000, currency: 'chf', destination: seller }),
    ).rejects.toMatchObject({ code: 'balance_insufficient' });
  });

  it("answers Stripe's test cards: declines, a saved 3155 off session, 3155 on session, a cancel", async () => {
    const later = await savedCard('pm_card_chargeCustomerFail');
    const failed = await stripe.paymentIntents
      .create({
        amount: 900,
        currency: 'eur',
        customer: later.customer,
        payment_method: later.card,
        off_session: true,
        confirm: true,
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(failed).toMatchObject({ code: 'card_declined', statusCode: 402 });

    const strong = await savedCard('pm_card_authenticationRequired');
    const offSession = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'eur',
      customer: strong.customer,
      payment_method: strong.card,
      off_session: true,
      confirm: true,
    });
    expect(offSession.status).toBe('succeeded');

    const saved = await stripe.customers.listPaymentMethods(strong.customer);
    expect(saved.data.map((method) => method.id)).toEqual([strong.card]);

    // On session it asks for authentication; the bank's page completes or fails it.
    const approved = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'eur',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
      return_url: 'http://app.example/stripe/payment/success',
    });
    expect(approved.status).toBe('requires_action');
    const back = await authenticate(
      approved.next_action?.redirect_to_url?.url as string,
      'complete',
    );
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(
      `http://app.example/stripe/payment/success?payment_intent=${approved.id}&payment_intent_client_secret=${approved.client_secret}&redirect_status=succeeded`,
    );
    expect((await stripe.paymentIntents.retrieve(approved.id)).status).toBe('succeeded');

    const refused = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'eur',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    });
    await authenticate(refused.next_action?.redirect_to_url?.url as string, 'fail');
    expect((await stripe.paymentIntents.retrieve(refused.id)).last_payment_error?.code).toBe(
      'payment_intent_authentication_failure',
    );

    const onSession = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'eur',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
    });
    expect(onSession.status).toBe('requires_action');
    const canceled = await stripe.paymentIntents.cancel(onSession.id);
    expect(canceled.status).toBe('canceled');
    await expect(stripe.paymentIntents.cancel(onSession.id)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
  });
});

/** Submits the hosted Checkout page's card form; answers the twin's response (not followed). */
async function payOnPage(url: string, number: string, extra: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: 'buyer@example.com',
      number,
      expiry: '12 / 34',
      cvc: '123',
      name: 'Ana Buyer',
      ...extra,
    }).toString(),
    redirect: 'manual',
  });
}

describe('Checkout sessions and their hosted page', () => {
  it('saves a card in setup mode: a wrong number is refused on the page, 4242 completes it', async () => {
    const customer = await stripe.customers.create({ email: 'setup@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'setup',
      currency: 'eur',
      customer: customer.id,
      success_url:
        'http://app.example/account/settings/paymentmethod?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.example/account/settings/paymentmethod',
    });
    expect(session).toMatchObject({
      status: 'open',
      mode: 'setup',
      payment_status: 'no_payment_required',
    });
    const page = await fetch(session.url as string);
    const text = await page.text();
    expect(text).toContain('Save your card');
    expect(text).toContain('value="setup@example.com"');

    const wrong = await payOnPage(session.url as string, '4242 4242 4242 4241');
    expect(wrong.status).toBe(402);
    expect(await wrong.text()).toContain('Your card number is incorrect.');
    const past = await payOnPage(session.url as string, '4242424242424242', { expiry: '01 / 20' });
    expect(await past.text()).toContain('expiration year is in the past.');

    const saved = await payOnPage(session.url as string, '4242 4242 4242 4242');
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(
      `http://app.example/account/settings/paymentmethod?session=${session.id}`,
    );
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done.status).toBe('complete');
    expect((await stripe.setupIntents.retrieve(done.setup_intent as string)).status).toBe(
      'succeeded',
    );
    const cards = await stripe.customers.listPaymentMethods(customer.id);
    expect(cards.data.map((card) => card.card?.last4)).toEqual(['4242']);
    expect(cards.data[0]?.card).toMatchObject({ exp_month: 12, exp_year: 2034 });
    const completed = await stripe.events.list({ type: 'checkout.session.completed', limit: 1 });
    expect((completed.data[0]?.data.object as Stripe.Checkout.Session).id).toBe(session.id);
  });

  it('takes a payment: the total of the line items, a decline shown on the page, then 4242', async () => {
    const customer = await stripe.customers.create({});
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [
        {
          price_data: {
            currency: 'eur',
            unit_amount: 1250,
            product_data: { name: 'Festival ticket' },
          },
          quantity: 2,
        },
      ],
      payment_intent_data: { transfer_group: 'order_42', metadata: { orderId: '42' } },
      success_url: 'http://app.example/stripe/payment/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.example/stripe/payment/cancel',
    });
    expect(session.amount_total).toBe(2500);
    expect(await (await fetch(session.url as string)).text()).toContain('Pay 25.00 EUR');

    const declined = await payOnPage(session.url as string, '4000000000000002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');

    const paid = await payOnPage(session.url as string, '4242424242424242');
    expect(paid.headers.get('location')).toBe(
      `http://app.example/stripe/payment/success?session_id=${session.id}`,
    );
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const intent = await stripe.paymentIntents.retrieve(done.payment_intent as string);
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 2500,
      currency: 'eur',
      transfer_group: 'order_42',
      metadata: { orderId: '42' },
    });
    // Opened again, a completed session sends the browser to its success page.
    const again = await fetch(session.url as string, { redirect: 'manual' });
    expect(again.headers.get('location')).toContain(session.id);
  });

  it('goes through the 3D Secure page for 3155: failed back to the form, completed to success', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'gbp', unit_amount: 990, product_data: { name: 'Print' } },
          quantity: 1,
        },
      ],
      success_url: 'http://app.example/ok',
    });
    const first = await payOnPage(session.url as string, '4000 0025 0000 3155');
    const challenge = first.headers.get('location') as string;
    expect(challenge).toMatch(/\/authenticate\/pi_/);
    const failed = await authenticate(challenge, 'fail');
    const back = await fetch(failed.headers.get('location') as string, { redirect: 'manual' });
    const form = await fetch(back.headers.get('location') as string);
    expect(await form.text()).toContain('We are unable to authenticate your payment method.');

    const second = await payOnPage(session.url as string, '4000002500003155');
    const approved = await authenticate(second.headers.get('location') as string, 'complete');
    const returned = await fetch(approved.headers.get('location') as string, {
      redirect: 'manual',
    });
    expect(returned.headers.get('location')).toBe('http://app.example/ok');
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
  });

  it('expires a session on request: its page says so, and it cannot be expired twice', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'x' } },
          quantity: 1,
        },
      ],
      success_url: 'http://app.example/ok',
    });
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    expect(await (await fetch(session.url as string)).text()).toContain('has expired');
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      code: 'checkout_session_unexpected_state',
    });
    await expect(
      stripe.checkout.sessions.create({ mode: 'payment', success_url: 'http://app.example/ok' }),
    ).rejects.toMatchObject({ param: 'line_items' });
  });
});

/** The events of `type` about object `id` (newest first). */
async function eventsAbout(type: string, id: string): Promise<Stripe.Event[]> {
  const events = await stripe.events.list({ type, limit: 100 });
  return events.data.filter((event) => (event.data.object as { id?: string }).id === id);
}

/** A card error's answer, as the SDK hands it over. */
async function cardError(run: () => Promise<unknown>): Promise<Stripe.errors.StripeCardError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
  return error as Stripe.errors.StripeCardError;
}

const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('charges and refunds of an order payment', () => {
  it('shows the charge of a PaymentIntent in Stripe’s shape, with a receipt page', async () => {
    const { customer, card } = await savedCard('pm_card_visa');
    const intent = await stripe.paymentIntents.create(
      {
        amount: 3000,
        currency: 'eur',
        customer,
        payment_method: card,
        off_session: true,
        confirm: true,
        transfer_group: 'order_c1',
        metadata: { order_id: 'c1', kind: 'full' },
      },
      { idempotencyKey: `charge-c1-${Date.now()}` },
    );
    expect(intent.latest_charge).toMatch(/^ch_/);
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge).toMatchObject({
      id: intent.latest_charge,
      object: 'charge',
      amount: 3000,
      amount_captured: 3000,
      amount_refunded: 0,
      refunded: false,
      captured: true,
      currency: 'eur',
      customer,
      payment_intent: intent.id,
      payment_method: card,
      paid: true,
      status: 'succeeded',
      transfer_group: 'order_c1',
      metadata: { order_id: 'c1', kind: 'full' },
      receipt_url: `${twin.url}/receipts/${intent.latest_charge as string}`,
      payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      outcome: { type: 'authorized', network_status: 'approved_by_network' },
    });
    expect(charge.balance_transaction).toMatch(/^txn_/);
    expect(charge.created).toBeGreaterThan(1_600_000_000);
    expect(charge.billing_details).toHaveProperty('email');
    // Since API version 2022-11-15 Stripe includes `refunds` only when it is expanded.
    expect(charge).not.toHaveProperty('refunds');

    const receipt = await fetch(charge.receipt_url as string);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await receipt.text();
    expect(text).toContain('30.00 EUR');
    expect(text).toContain('Visa – 4242');
    expect(text).toContain(new Date(charge.created * 1000).toISOString().slice(0, 10));
    expect((await fetch(`${twin.url}/receipts/ch_nothere`)).status).toBe(404);

    const listed = await stripe.charges.list({ payment_intent: intent.id });
    expect(listed.data.map((entry) => entry.id)).toEqual([charge.id]);
    const expanded = await stripe.paymentIntents.retrieve(intent.id, {
      expand: ['latest_charge'],
    });
    expect((expanded.latest_charge as Stripe.Charge).receipt_url).toBe(charge.receipt_url);
    expect(
      (await stripe.paymentIntents.retrieve(intent.id)).latest_charge,
      'ids unless expanded',
    ).toBe(charge.id);
  });

  it('emits refund.created and charge.refunded for each refund; the charge shows them', async () => {
    const { customer, card } = await savedCard('pm_card_visa');
    const intent = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'eur',
      customer,
      payment_method: card,
      off_session: true,
      confirm: true,
      transfer_group: 'order_r1',
    });
    const chargeId = intent.latest_charge as string;
    const key = `refund-r1-${Date.now()}`;
    const partial = await stripe.refunds.create(
      { payment_intent: intent.id, amount: 1000, metadata: { order_id: 'r1' } },
      { idempotencyKey: key },
    );
    expect(partial).toMatchObject({
      amount: 1000,
      charge: chargeId,
      payment_intent: intent.id,
      status: 'succeeded',
      metadata: { order_id: 'r1' },
    });
    // The same key replays the refund: nothing is refunded twice.
    const replayed = await stripe.refunds.create(
      { payment_intent: intent.id, amount: 1000, metadata: { order_id: 'r1' } },
      { idempotencyKey: key },
    );
    expect(replayed.id).toBe(partial.id);
    expect((await stripe.charges.retrieve(chargeId)).amount_refunded).toBe(1000);

    const [created] = await eventsAbout('refund.created', partial.id);
    expect((created?.data.object as Stripe.Refund).amount).toBe(1000);
    const [firstRefunded] = await eventsAbout('charge.refunded', chargeId);
    expect(firstRefunded?.data.object).toMatchObject({
      object: 'charge',
      id: chargeId,
      amount_refunded: 1000,
      refunded: false,
      payment_intent: intent.id,
    });

    const rest = await stripe.refunds.create({ charge: chargeId });
    expect(rest).toMatchObject({ amount: 2000, payment_intent: intent.id });
    const refundedEvents = await eventsAbout('charge.refunded', chargeId);
    expect(refundedEvents).toHaveLength(2);
    expect(refundedEvents[0]?.data.object).toMatchObject({
      amount_refunded: 3000,
      refunded: true,
    });

    const charge = await stripe.charges.retrieve(chargeId, { expand: ['refunds'] });
    expect(charge).toMatchObject({ amount_refunded: 3000, refunded: true, status: 'succeeded' });
    expect(charge.refunds?.data.map((refund) => [refund.id, refund.amount])).toEqual([
      [rest.id, 2000],
      [partial.id, 1000],
    ]);
    expect((await stripe.refunds.list({ payment_intent: intent.id })).data).toHaveLength(2);
    expect(await (await fetch(charge.receipt_url as string)).text()).toContain(
      '30.00 EUR (fully refunded)',
    );
    await expect(stripe.refunds.create({ charge: chargeId })).rejects.toMatchObject({
      code: 'charge_already_refunded',
      statusCode: 400,
    });
  });
});

describe('charging a saved card', () => {
  it('declines 0341 off session as a card error carrying the failed intent and charge', async () => {
    const later = await savedCard('pm_card_chargeCustomerFail');
    const key = `declined-${Date.now()}`;
    const create = () =>
      stripe.paymentIntents.create(
        {
          amount: 1200,
          currency: 'eur',
          customer: later.customer,
          payment_method: later.card,
          off_session: true,
          confirm: true,
          transfer_group: 'order_d1',
          metadata: { order_id: 'd1' },
        },
        { idempotencyKey: key },
      );
    const error = await cardError(create);
    expect(error).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    const failed = error.payment_intent as Stripe.PaymentIntent;
    expect(failed).toMatchObject({
      status: 'requires_payment_method',
      transfer_group: 'order_d1',
      metadata: { order_id: 'd1' },
      last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
    });
    expect(error.charge).toBe(failed.latest_charge);
    // The same key replays the decline: no second attempt.
    const again = await cardError(create);
    expect((again.payment_intent as Stripe.PaymentIntent).id).toBe(failed.id);

    const charge = await stripe.charges.retrieve(failed.latest_charge as string);
    expect(charge).toMatchObject({
      status: 'failed',
      paid: false,
      amount_captured: 0,
      failure_code: 'card_declined',
      outcome: { type: 'issuer_declined', reason: 'generic_decline' },
      receipt_url: null,
    });
    expect(await eventsAbout('payment_intent.payment_failed', failed.id)).toHaveLength(1);
    expect(await eventsAbout('charge.failed', charge.id)).toHaveLength(1);
    await expect(stripe.refunds.create({ payment_intent: failed.id })).rejects.toMatchObject({
      code: 'charge_not_refundable',
    });
  });

  it('asks for authentication off session for a 3155 card saved without a SetupIntent', async () => {
    const customer = await stripe.customers.create({});
    const attached = await stripe.paymentMethods.attach('pm_card_authenticationRequired', {
      customer: customer.id,
    });
    const error = await cardError(() =>
      stripe.paymentIntents.create({
        amount: 800,
        currency: 'eur',
        customer: customer.id,
        payment_method: attached.id,
        off_session: true,
        confirm: true,
      }),
    );
    expect(error).toMatchObject({
      code: 'authentication_required',
      decline_code: 'authentication_required',
      statusCode: 402,
    });
    const failed = error.payment_intent as Stripe.PaymentIntent;
    expect(failed.status).toBe('requires_payment_method');
    expect(await eventsAbout('payment_intent.payment_failed', failed.id)).toHaveLength(1);
  });

  it('sends a saved 3155 card on session to the 3D Secure page and back to return_url', async () => {
    const strong = await savedCard('pm_card_authenticationRequired');
    const intent = await stripe.paymentIntents.create({
      amount: 1800,
      currency: 'eur',
      customer: strong.customer,
      payment_method: strong.card,
      confirm: true,
      return_url: 'http://app.example/orders/o9/pay',
      transfer_group: 'order_o9',
    });
    expect(intent.status).toBe('requires_action');
    expect(intent.next_action?.type).toBe('redirect_to_url');
    const url = intent.next_action?.redirect_to_url?.url as string;
    expect(url).toBe(`${twin.url}/authenticate/${intent.id}`);
    expect(await eventsAbout('payment_intent.succeeded', intent.id)).toEqual([]);

    const back = await authenticate(url, 'complete');
    const location = new URL(back.headers.get('location') as string);
    expect(`${location.origin}${location.pathname}`).toBe('http://app.example/orders/o9/pay');
    expect(location.searchParams.get('payment_intent')).toBe(intent.id);
    expect(location.searchParams.get('payment_intent_client_secret')).toBe(intent.client_secret);
    expect(location.searchParams.get('redirect_status')).toBe('succeeded');
    const paid = await stripe.paymentIntents.retrieve(intent.id);
    expect(paid).toMatchObject({ status: 'succeeded', next_action: null });
    expect(await eventsAbout('payment_intent.succeeded', intent.id)).toHaveLength(1);
    const charge = await stripe.charges.retrieve(paid.latest_charge as string);
    expect(charge.payment_method_details?.card?.three_d_secure).toMatchObject({
      result: 'authenticated',
    });
  });
});

describe('Checkout in payment mode for an order', () => {
  it('pays with the session’s payment_intent_data, saves the card off session, and emits both events', async () => {
    const customer = await stripe.customers.create({ email: 'order@example.com' });
    const expiresAt = inOneHour();
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer: customer.id,
        line_items: [
          {
            price_data: {
              currency: 'eur',
              unit_amount: 1250,
              product_data: { name: 'Numbered print' },
            },
            quantity: 2,
          },
        ],
        payment_intent_data: {
          transfer_group: 'order_77',
          metadata: { order_id: '77', kind: 'deposit' },
          setup_future_usage: 'off_session',
        },
        metadata: { order_id: '77', purpose: 'order' },
        success_url: 'http://app.example/orders/77?session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://app.example/orders/77',
        expires_at: expiresAt,
      },
      { idempotencyKey: `checkout-77-${Date.now()}` },
    );
    expect(session).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      amount_total: 2500,
      expires_at: expiresAt,
      metadata: { order_id: '77', purpose: 'order' },
    });

    // A declined card leaves the session open with its PaymentIntent, which only expiring the
    // session cancels.
    expect((await payOnPage(session.url as string, '4000000000000002')).status).toBe(402);
    const attempted = await stripe.checkout.sessions.retrieve(session.id);
    expect(attempted.status).toBe('open');
    const intentId = attempted.payment_intent as string;
    expect(intentId).toMatch(/^pi_/);
    expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe('requires_payment_method');
    await expect(stripe.paymentIntents.cancel(intentId)).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });

    const paid = await payOnPage(session.url as string, '4242424242424242');
    expect(paid.headers.get('location')).toBe(
      `http://app.example/orders/77?session_id=${session.id}`,
    );
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      amount_total: 2500,
      payment_intent: intentId,
      url: null,
    });
    const intent = await stripe.paymentIntents.retrieve(intentId);
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 2500,
      currency: 'eur',
      customer: customer.id,
      transfer_group: 'order_77',
      metadata: { order_id: '77', kind: 'deposit' },
      setup_future_usage: 'off_session',
    });
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect((await stripe.charges.retrieve(intent.latest_charge as string)).transfer_group).toBe(
      'order_77',
    );

    const [completed] = await eventsAbout('checkout.session.completed', session.id);
    expect(completed?.data.object).toMatchObject({
      payment_intent: intentId,
      payment_status: 'paid',
      status: 'complete',
    });
    expect(await eventsAbout('payment_intent.succeeded', intentId)).toHaveLength(1);
    expect(await eventsAbout('payment_intent.payment_failed', intentId)).toHaveLength(1);

    // setup_future_usage: the card is the customer's now, and charges off session later.
    const cards = await stripe.customers.listPaymentMethods(customer.id);
    expect(cards.data.map((card) => card.id)).toEqual([intent.payment_method]);
    expect(
      await eventsAbout('payment_method.attached', intent.payment_method as string),
    ).toHaveLength(1);
    const balance = await stripe.paymentIntents.create({
      amount: 7500,
      currency: 'eur',
      customer: customer.id,
      payment_method: intent.payment_method as string,
      off_session: true,
      confirm: true,
      transfer_group: 'order_77',
      metadata: { order_id: '77', kind: 'balance' },
    });
    expect(balance.status).toBe('succeeded');

    const withIntent = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent'],
    });
    expect((withIntent.payment_intent as Stripe.PaymentIntent).status).toBe('succeeded');
    const found = await stripe.checkout.sessions.list({ payment_intent: intentId });
    expect(found.data.map((entry) => entry.id)).toEqual([session.id]);
    const expire = await stripe.checkout.sessions
      .expire(session.id)
      .catch((error: unknown) => error);
    expect(expire).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(expire).toMatchObject({ statusCode: 400 });
    expect((expire as Error).message).toBe(
      'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `complete`.',
    );
  });

  it('saves a 3155 card paid through 3D Secure, which then charges off session', async () => {
    const customer = await stripe.customers.create({});
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [
        {
          price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'Deposit' } },
          quantity: 1,
        },
      ],
      payment_intent_data: { setup_future_usage: 'off_session', transfer_group: 'order_3d' },
      success_url: 'http://app.example/ok',
      expires_at: inOneHour(),
    });
    const challenge = await payOnPage(session.url as string, '4000002500003155');
    const approved = await authenticate(challenge.headers.get('location') as string, 'complete');
    // Paid, the session completes at once, whether the browser comes back or not.
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(await eventsAbout('checkout.session.completed', session.id)).toHaveLength(1);
    const back = await fetch(approved.headers.get('location') as string, { redirect: 'manual' });
    expect(back.headers.get('location')).toBe('http://app.example/ok');
    expect(await eventsAbout('checkout.session.completed', session.id)).toHaveLength(1);
    const intent = await stripe.paymentIntents.retrieve(done.payment_intent as string);
    const later = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'eur',
      customer: customer.id,
      payment_method: intent.payment_method as string,
      off_session: true,
      confirm: true,
    });
    expect(later.status).toBe('succeeded');
  });

  it('drops an attempt left at the 3D Secure page when the buyer pays again on the form', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'eur', unit_amount: 700, product_data: { name: 'Print' } },
          quantity: 1,
        },
      ],
      success_url: 'http://app.example/ok',
    });
    const challenge = await payOnPage(session.url as string, '4000002500003155');
    const intentId = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent;
    expect((await stripe.paymentIntents.retrieve(intentId as string)).status).toBe(
      'requires_action',
    );
    const paid = await payOnPage(session.url as string, '4242424242424242');
    expect(paid.headers.get('location')).toBe('http://app.example/ok');
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: 'complete', payment_intent: intentId });
    expect(await (await fetch(challenge.headers.get('location') as string)).text()).toContain(
      'Nothing to authenticate',
    );
  });

  it('refuses an expiry outside 30 minutes to 24 hours, and expires an open session on request', async () => {
    const base = {
      mode: 'payment' as const,
      line_items: [
        {
          price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'x' } },
          quantity: 1,
        },
      ],
      success_url: 'http://app.example/ok',
    };
    const now = Math.floor(Date.now() / 1000);
    for (const expiresAt of [now + 29 * 60, now + 25 * 3600]) {
      await expect(
        stripe.checkout.sessions.create({ ...base, expires_at: expiresAt }),
      ).rejects.toMatchObject({ param: 'expires_at', statusCode: 400 });
    }
    const session = await stripe.checkout.sessions.create({ ...base, expires_at: now + 31 * 60 });
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', payment_status: 'unpaid', url: null });
    expect(await eventsAbout('checkout.session.expired', session.id)).toHaveLength(1);
  });

  it('expires a session on its own once expires_at passes, canceling its PaymentIntent', async () => {
    let clock = Date.now();
    const clocked = await startStripeTwin({
      now: () => new Date(clock),
      expirySweepMs: 10,
      errorLog: (line) => notEmulated.push(line),
    });
    try {
      const sdk = new Stripe(clocked.secretKey, { ...clocked.sdkConfig, maxNetworkRetries: 0 });
      const session = await sdk.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            price_data: { currency: 'eur', unit_amount: 900, product_data: { name: 'x' } },
            quantity: 1,
          },
        ],
        success_url: 'http://app.example/ok',
        expires_at: Math.floor(clock / 1000) + 30 * 60,
      });
      const untouched = await sdk.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            price_data: { currency: 'eur', unit_amount: 900, product_data: { name: 'y' } },
            quantity: 1,
          },
        ],
        success_url: 'http://app.example/ok',
        expires_at: Math.floor(clock / 1000) + 2 * 3600,
      });
      await payOnPage(session.url as string, '4000000000000002');
      const intentId = (await sdk.checkout.sessions.retrieve(session.id)).payment_intent as string;

      clock += 31 * 60 * 1000;
      // Nobody reads the session: the twin's timer expires it and says so.
      await expect
        .poll(
          async () =>
            (await sdk.events.list({ type: 'checkout.session.expired' })).data.map(
              (event) => (event.data.object as Stripe.Checkout.Session).id,
            ),
          { timeout: 2_000 },
        )
        .toEqual([session.id]);
      expect(await sdk.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'expired',
        url: null,
      });
      expect((await sdk.checkout.sessions.retrieve(untouched.id)).status).toBe('open');
      expect((await sdk.paymentIntents.retrieve(intentId)).status).toBe('canceled');
      const canceled = await sdk.events.list({ type: 'payment_intent.canceled' });
      expect(canceled.data.map((event) => (event.data.object as { id: string }).id)).toEqual([
        intentId,
      ]);
      expect(await (await fetch(session.url as string)).text()).toContain('has expired');
    } finally {
      await clocked.stop();
    }
  });
});

describe('transfers to a connected account and its balance', () => {
  it('lands transfers in the account’s available balance, less reversals; the platform’s goes down', async () => {
    const { customer, card } = await savedCard('pm_card_visa');
    const seller = await onboardedAccount();
    const platformBefore = available(await stripe.balance.retrieve(), 'dkk');
    const intent = await stripe.paymentIntents.create({
      amount: 10_000,
      currency: 'dkk',
      customer,
      payment_method: card,
      off_session: true,
      confirm: true,
      transfer_group: 'order_t1',
    });
    const chargeId = intent.latest_charge as string;
    expect(available(await stripe.balance.retrieve(), 'dkk')).toBe(platformBefore + 10_000);

    const first = await stripe.transfers.create(
      {
        amount: 6000,
        currency: 'dkk',
        destination: seller,
        transfer_group: 'order_t1',
        source_transaction: chargeId,
        metadata: { order_id: 't1', party: 'seller' },
      },
      { idempotencyKey: `transfer-t1-${Date.now()}` },
    );
    const second = await stripe.transfers.create({
      amount: 1500,
      currency: 'dkk',
      destination: seller,
      transfer_group: 'order_t1',
      source_transaction: chargeId,
    });
    const sellerBalance = async () => stripe.balance.retrieve({}, { stripeAccount: seller });
    expect(available(await sellerBalance(), 'dkk')).toBe(7500);
    expect(available(await stripe.balance.retrieve(), 'dkk')).toBe(platformBefore + 2500);

    const partial = await stripe.transfers.createReversal(first.id, {
      amount: 2500,
      metadata: { order_id: 't1' },
    });
    expect(partial).toMatchObject({
      object: 'transfer_reversal',
      amount: 2500,
      transfer: first.id,
    });
    const full = await stripe.transfers.createReversal(second.id);
    expect(full.amount).toBe(1500);
    expect(await stripe.transfers.retrieve(second.id)).toMatchObject({
      amount_reversed: 1500,
      reversed: true,
    });
    expect(await stripe.transfers.retrieve(first.id)).toMatchObject({
      amount_reversed: 2500,
      reversed: false,
    });
    expect(available(await sellerBalance(), 'dkk')).toBe(3500);
    expect(available(await stripe.balance.retrieve(), 'dkk')).toBe(platformBefore + 6500);
    await expect(stripe.transfers.createReversal(second.id, { amount: 1 })).rejects.toMatchObject({
      code: 'amount_too_large',
    });

    const grouped = await stripe.transfers.list({ transfer_group: 'order_t1' });
    expect(grouped.data.map((transfer) => transfer.id)).toEqual([second.id, first.id]);
    expect(
      (await stripe.transfers.listReversals(first.id)).data.map((reversal) => reversal.id),
    ).toEqual([partial.id]);
    const [reversed] = await eventsAbout('transfer.reversed', second.id);
    expect((reversed?.data.object as Stripe.Transfer).reversed).toBe(true);
  });
});

describe('/dev/stripe', () => {
  it('shows a refunded payment and a reversed transfer with their amounts', async () => {
    const { customer, card } = await savedCard('pm_card_visa');
    const seller = await onboardedAccount();
    const intent = await stripe.paymentIntents.create({
      amount: 4000,
      currency: 'eur',
      customer,
      payment_method: card,
      off_session: true,
      confirm: true,
      transfer_group: 'order_dev',
    });
    const chargeId = intent.latest_charge as string;
    const transfer = await stripe.transfers.create({
      amount: 3000,
      currency: 'eur',
      destination: seller,
      transfer_group: 'order_dev',
      source_transaction: chargeId,
    });
    const reversal = await stripe.transfers.createReversal(transfer.id, { amount: 1000 });
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 1500 });

    const listing = stripeListing(twin.state(), twin.deliveries());
    expect(listing.payments.find((payment) => payment.id === intent.id)).toMatchObject({
      charge: chargeId,
      refunded: 1500,
      refund_status: 'partially refunded',
      refunds: [{ id: refund.id, amount: 1500 }],
      receipt_url: `${twin.url}/receipts/${chargeId}`,
    });
    expect(listing.transfers.find((entry) => entry.id === transfer.id)).toMatchObject({
      amount_reversed: 1000,
      reversal_status: 'partially reversed',
      reversals: [{ id: reversal.id, amount: 1000 }],
    });
    const page = renderStripePage(listing);
    expect(page).toContain(`15.00 EUR in ${refund.id} 15.00 EUR`);
    expect(page).toContain('succeeded · partially refunded');
    expect(page).toContain('25.00 EUR');
    expect(page).toContain(`10.00 EUR · partially reversed in ${reversal.id} 10.00 EUR`);
    expect(page).toContain(`href="${twin.url}/receipts/${chargeId}"`);

    await stripe.refunds.create({ payment_intent: intent.id });
    await stripe.transfers.createReversal(transfer.id);
    const after = renderStripePage(stripeListing(twin.state(), twin.deliveries()));
    expect(after).toContain('succeeded · refunded');
    expect(after).toContain('30.00 EUR · reversed in');
  });
});

describe("Stripe's request semantics", () => {
  it('answers an unknown object 404 resource_missing with a request id', async () => {
    const error = await stripe.customers.retrieve('cus_nothere').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
    expect((error as Stripe.errors.StripeError).message).toBe("No such customer: 'cus_nothere'");
  });

  it('answers what it does not emulate with Stripe 404 and says so loudly', async () => {
    notEmulated.length = 0;
    const error = await stripe.coupons.list().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ statusCode: 404 });
    expect((error as Error).message).toMatch(/^Unrecognized request URL \(GET: \/v1\/coupons\)/);
    expect(notEmulated.some((line) => line.includes('NOT EMULATED: GET /v1/coupons'))).toBe(true);
  });

  it('refuses a wrong or missing key', async () => {
    const wrong = new Stripe('sk_test_wrong_key_0000', { ...twin.sdkConfig, maxNetworkRetries: 0 });
    await expect(wrong.customers.list()).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    const response = await fetch(`${twin.url}/v1/customers`);
    expect(response.status).toBe(401);
    // Stripe's curl examples: the key as the Basic user name.
    const basic = await fetch(`${twin.url}/v1/events?limit=1`, {
      headers: { authorization: `Basic ${Buffer.from(`${twin.secretKey}:`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
      'invalid_request_error',
    );
  });

  it('replays an Idempotency-Key with the same parameters, refuses it with others', async () => {
    const key = `key-${Date.now()}`;
    const first = await stripe.customers.create(
      { email: 'once@example.com' },
      { idempotencyKey: key },
    );
    const again = await stripe.customers.create(
      { email: 'once@example.com' },
      { idempotencyKey: key },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await stripe.customers
      .create({ email: 'other@example.com' }, { idempotencyKey: key })
      .catch((error: unknown) => error);
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(
      Object.values(twin.state().customers).filter((c) => c.email === 'once@example.com'),
    ).toHaveLength(1);
  });
});

describe('webhooks', () => {
  let endpoint: Server;
  let endpointUrl: string;
  const received: { signature: string; body: string }[] = [];
  let failuresLeft = 0;
  const secret = 'whsec_twin_test_secret';

  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      void readBody(req, 1_000_000).then((body) => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          res.writeHead(500).end();
          return;
        }
        received.push({ signature: String(req.headers['stripe-signature']), body: String(body) });
        res.writeHead(200).end();
      });
    });
    endpointUrl = `http://127.0.0.1:${await listen(endpoint, 0)}/api/payment-gateway/webhook`;
    twin.setWebhookEndpoint({ url: endpointUrl, secret });
  });

  afterEach(() => {
    received.length = 0;
  });

  afterAll(async () => {
    twin.setWebhookEndpoint(undefined);
    await closeServer(endpoint);
  });

  it('signs every event as Stripe does: the SDK verifies it, and refuses a tampered one', async () => {
    const customer = await stripe.customers.create({ email: 'hook@example.com' });
    await twin.webhooksSettled();
    const delivery = received.find((entry) => entry.body.includes(customer.id));
    expect(delivery).toBeDefined();
    const event = stripe.webhooks.constructEvent(
      delivery?.body ?? '',
      delivery?.signature ?? '',
      secret,
      300,
    );
    expect(event.type).toBe('customer.created');
    expect((event.data.object as Stripe.Customer).id).toBe(customer.id);
    expect(() =>
      stripe.webhooks.constructEvent(
        (delivery?.body ?? '').replace('hook@example.com', 'evil@example.com'),
        delivery?.signature ?? '',
        secret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() =>
      stripe.webhooks.constructEvent(
        delivery?.body ?? '',
        delivery?.signature ?? '',
        'whsec_wrong',
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('retries a failing endpoint with backoff until it answers 2xx', async () => {
    failuresLeft = 2;
    const customer = await stripe.customers.create({ email: 'retry@example.com' });
    await expect
      .poll(() => received.some((entry) => entry.body.includes(customer.id)), { timeout: 2_000 })
      .toBe(true);
    const record = twin
      .deliveries()
      .find((entry) => entry.status === 'delivered' && entry.attempts === 3);
    expect(record?.type).toBe('customer.created');
  });

  it('a test can hold deliveries and release them three times each, shuffled', async () => {
    twin.holdWebhooks();
    const a = await stripe.customers.create({ email: 'a@example.com' });
    const b = await stripe.customers.create({ email: 'b@example.com' });
    expect(received).toEqual([]);
    twin.releaseWebhooks({ copies: 3, order: 'shuffled' });
    await twin.webhooksSettled();
    const ids = received.map(
      (entry) => (JSON.parse(entry.body) as { data: { object: { id: string } } }).data.object.id,
    );
    expect(ids.filter((id) => id === a.id)).toHaveLength(3);
    expect(ids.filter((id) => id === b.id)).toHaveLength(3);
  });
});

describe('webhooks across a restart of the twin', () => {
  it('delivers after the restart an event whose delivery the stop interrupted, and only that one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stripe-restart-'));
    const persistFile = path.join(dir, 'stripe.json');
    let down = false;
    const received: string[] = [];
    const endpoint = createServer((req, res) => {
      void readBody(req, 1_000_000).then((body) => {
        if (down) {
          res.writeHead(503).end();
          return;
        }
        received.push((JSON.parse(String(body)) as { id: string }).id);
        res.writeHead(200).end();
      });
    });
    const url = `http://127.0.0.1:${await listen(endpoint, 0)}/api/payment-gateway/webhook`;
    const start = () =>
      startStripeTwin({
        persistFile,
        webhook: { url, secret: 'whsec_restart' },
        // The next retry is far away: only a resumed delivery can reach the endpoint in time.
        retryDelaysMs: [3_600_000],
      });
    const eventOf = (twinNow: StripeTwin, customerId: string) =>
      twinNow.state().events.find((event) => JSON.stringify(event).includes(customerId))?.id;
    try {
      const first = await start();
      const client = new Stripe(first.secretKey, { ...first.sdkConfig, maxNetworkRetries: 0 });
      const delivered = await client.customers.create({ email: 'before@example.com' });
      await first.webhooksSettled();
      down = true;
      const interrupted = await client.customers.create({ email: 'during@example.com' });
      await first.webhooksSettled();
      const deliveredEvent = eventOf(first, delivered.id);
      const interruptedEvent = eventOf(first, interrupted.id);
      expect(received).toEqual([deliveredEvent]);
      expect(first.deliveries().find((entry) => entry.eventId === interruptedEvent)).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatus: 503,
      });
      await first.stop();

      down = false;
      const second = await start();
      expect(second.resumeWebhooks()).toBe(1);
      await second.webhooksSettled();
      expect(received).toEqual([deliveredEvent, interruptedEvent]);
      expect(second.deliveries()).toMatchObject([
        { eventId: interruptedEvent, status: 'delivered', attempts: 2 },
      ]);
      await second.stop();

      // Delivered, it is not sent a third time.
      const third = await start();
      expect(third.resumeWebhooks()).toBe(0);
      await third.stop();
      expect(received).toEqual([deliveredEvent, interruptedEvent]);
    } finally {
      await closeServer(endpoint);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/*
 * The contract: every object type the twin returns has the keys of Stripe's published example of
 * it (../shared/reference/stripe/fixtures3.json), and where both have a value, the same JSON type,
 * nested objects compared the same way. A null of ours stands for a nullable field.
 */
describe("the twin's objects against Stripe's fixtures", () => {
  const fixtures = (
    JSON.parse(
      readFileSync(
        path.join(REPO_ROOT, '..', 'shared', 'reference', 'stripe', 'fixtures3.json'),
        'utf8',
      ),
    ) as { resources: Record<string, unknown> }
  ).resources;

  const kind = (value: unknown) =>
    value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

  function differences(fixture: unknown, ours: unknown, at: string): string[] {
    if (fixture === null || ours === null) return [];
    if (kind(fixture) !== kind(ours)) return [`${at}: ${kind(ours)}, Stripe's is ${kind(fixture)}`];
    if (kind(fixture) !== 'object') return [];
    const found: string[] = [];
    for (const [key, value] of Object.entries(fixture as Record<string, unknown>)) {
      if (!(key in (ours as Record<string, unknown>))) {
        found.push(`${at}.${key}: missing`);
        continue;
      }
      // Maps keyed by the user (metadata), and an event's object (Stripe's example is a plan; each
      // object type is compared with its own fixture here) are free.
      if (key === 'metadata' || key === 'previous_attributes') continue;
      if (at === 'event.data' && key === 'object') continue;
      found.push(...differences(value, (ours as Record<string, unknown>)[key], `${at}.${key}`));
    }
    return found;
  }

  it('accounts, links, customers, payment methods, setup intents, charges, disputes, payouts, balance transactions and events have Stripe’s shapes', async () => {
    // Stripe's example account has both capabilities (a map of those asked for): asked for here.
    const account = await stripe.accounts.create({
      type: 'express',
      country: 'US',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    });
    const link = await stripe.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      refresh_url: 'http://app.example/r',
      return_url: 'http://app.example/s',
    });
    await onboard(account.id, 'complete');
    const login = await stripe.accounts.createLoginLink(account.id);
    const customer = await stripe.customers.create({ email: 'shape@example.com' });
    const setupIntent = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const paymentMethod = await stripe.paymentMethods.retrieve(
      setupIntent.payment_method as string,
    );
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const transfer = await stripe.transfers.create({
      amount: 400,
      currency: 'usd',
      destination: account.id,
      source_transaction: intent.latest_charge as string,
    });
    const reversal = await stripe.transfers.createReversal(transfer.id, { amount: 100 });
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 100 });
    const charge = await stripe.charges.retrieve(intent.latest_charge as string, {
      expand: ['refunds'],
    });
    const balance = await stripe.balance.retrieve();
    const balanceTransaction = await stripe.balanceTransactions.retrieve(
      charge.balance_transaction as string,
    );
    const dispute = await stripe.disputes.retrieve(
      (await openDispute(twin.url, { payment_intent: intent.id })).id,
    );
    const [paidOut] = await payOutAccount(twin.url, account.id);
    const payout = await stripe.payouts.retrieve(
      paidOut?.id as string,
      {},
      { stripeAccount: account.id },
    );
    const leaving = await stripe.accounts.create({
      type: 'express',
      country: 'US',
      capabilities: { transfers: { requested: true } },
    });
    const application = (await deauthorize(twin.url, leaving.id)).data.object;
    const checkoutSession = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'x' } },
          quantity: 1,
        },
      ],
      success_url: 'http://app.example/ok',
      cancel_url: 'http://app.example/cancel',
    });
    const event = (await stripe.events.list({ limit: 1 })).data[0];
    const deleted = await stripe.accounts.del(account.id);
    const objects: Record<string, unknown> = {
      account: await stripe.accounts.retrieve(account.id).catch(() => account),
      account_link: link,
      login_link: login,
      customer,
      setup_intent: setupIntent,
      payment_method: paymentMethod,
      event,
      deleted_account: deleted,
      payment_intent: intent,
      transfer: await stripe.transfers.retrieve(transfer.id),
      transfer_reversal: reversal,
      refund,
      charge,
      balance,
      balance_transaction: balanceTransaction,
      dispute,
      payout,
      application,
      'checkout.session': checkoutSession,
    };
    const strip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    for (const [name, ours] of Object.entries(objects)) {
      const { lastResponse: _ignored, ...plain } = ours as { lastResponse?: unknown };
      expect(differences(fixtures[name], strip(plain), name), name).toEqual([]);
    }
  });
});
