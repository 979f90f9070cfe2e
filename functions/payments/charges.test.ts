import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeTwin, type StripeTwin } from '../../infra/local/stripe/server';
import { onboardedAccount, savedCard } from '../../infra/local/stripe/testing';
import { transferShare, type ShareTransfer } from './charges';

/*
 * Payouts against the Stripe twin, whose clock the test moves: Stripe forgets an idempotency key
 * after 24 hours, and a payout retried later than that must still not pay a share twice.
 */
const HOUR = 3_600_000;
let clock = Date.parse('2026-11-24T12:00:00Z');
let twin: StripeTwin;
let stripe: Stripe;
const deps = { stripe: async () => stripe };

beforeAll(async () => {
  twin = await startStripeTwin({ now: () => new Date(clock) });
  stripe = new Stripe(twin.secretKey, { ...twin.sdkConfig, maxNetworkRetries: 0 });
});

afterAll(async () => {
  await twin.stop();
});

/** An order paid with a saved card (one charge), and the seller's account that shares in it. */
async function paidOrder(orderId: string) {
  const { customer, card } = await savedCard(stripe, 'pm_card_visa');
  const seller = await onboardedAccount(stripe);
  const intent = await stripe.paymentIntents.create({
    amount: 10_000,
    currency: 'eur',
    customer,
    payment_method: card,
    off_session: true,
    confirm: true,
    transfer_group: orderId,
  });
  const share = (party: string, amount: number): ShareTransfer => ({
    accountId: seller,
    amount,
    currency: 'EUR',
    orderId,
    chargeId: intent.latest_charge as string,
    party,
    idempotencyKey: `payout:${orderId}:${party}:${intent.latest_charge as string}`,
  });
  const received = async () =>
    (await stripe.transfers.list({ transfer_group: orderId, destination: seller })).data;
  return { share, received };
}

describe('transferShare (a payout share, made once)', () => {
  it('pays a share once: retried at once, and retried 25 hours later when Stripe has forgotten the key', async () => {
    const order = await paidOrder('order_late_retry');
    const first = await transferShare(deps, order.share('seller', 8_000));
    expect(await transferShare(deps, order.share('seller', 8_000))).toEqual(first);

    clock += 25 * HOUR;
    expect(await transferShare(deps, order.share('seller', 8_000))).toEqual(first);

    const received = await order.received();
    expect(first.status).toBe('paid');
    expect(received.map((transfer) => [transfer.id, transfer.amount])).toEqual([
      [first.status === 'paid' ? first.transfer_id : null, 8_000],
    ]);
  });

  it('pays two racing calls once, and another party of the same charge its own share', async () => {
    const order = await paidOrder('order_race');
    const [one, two] = await Promise.all([
      transferShare(deps, order.share('seller', 7_000)),
      transferShare(deps, order.share('seller', 7_000)),
    ]);
    expect(two).toEqual(one);
    const creator = await transferShare(deps, order.share('creator', 1_000));
    expect(creator).not.toEqual(one);

    clock += 30 * HOUR;
    expect(await transferShare(deps, order.share('creator', 1_000))).toEqual(creator);
    const received = await order.received();
    expect(received.map((transfer) => transfer.metadata.party).sort()).toEqual([
      'creator',
      'seller',
    ]);
    expect(received.reduce((sum, transfer) => sum + transfer.amount, 0)).toBe(8_000);
  });
});
