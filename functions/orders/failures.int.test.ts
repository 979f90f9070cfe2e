import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, twin, useTwinEnv } from '../../infra/local/test/twin-context';
import {
  clearFaults,
  closeDispute,
  deauthorize,
  dropWebhooks,
  emitEvent,
  holdWebhooks,
  injectFault,
  openDispute,
  payOutAccount,
} from '../../infra/local/stripe/testing';
import {
  call,
  hasCognito,
  logIn,
  makeAdmin,
  newUser,
  type TestUser,
} from '../accounts/testing/session';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { putFinishedItem } from '../items/testing/items';
import { allCopies, createItemsRepo, lockPack } from '../items/index';
import { listCards, paymentsDeps, reconcileStripe } from '../payments/index';
import type {
  CardPayment,
  CheckoutSession,
  MoneyOverview,
  Order,
  WalletActivity,
} from '../../shared/schemas/orders';
import { ordersDeps } from './orders.deps';
import { preorder, releaseDue } from './booking';
import { updateOrder } from './fulfilment';
import { RELEASE_AFTER_SHIPPING_MS } from './order.machine';
import { ORDER_SWEEP_GRACE_MS, sweepOrders } from './sweep';
import type { OrdersDeps } from './ports';
import {
  addCard,
  enterCard,
  listApproved,
  onboardSeller,
  payOutside,
  stripeState,
  twinStripe,
  until,
  webhooks,
} from './testing/market';

/**
 * Money that survives failure (issue 30), on the twin: a double click, two tabs and five calls at
 * once give one charge; a retried request with its Idempotency-Key gets the first answer; a payment
 * page racing a saved card, and a second payment of a paid order, never undo the sale; a refund
 * made in Stripe's dashboard has its wallet line; the card provider down answers its own error and
 * charges nothing; a cancel never refunds and leaves the copies; a reversal Stripe refuses is
 * recorded as owed and kept back from the account's next payout.
 */
const RUN = `fa${Date.now().toString(36)}`;
let seller: TestUser;
let buyer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  [seller, buyer, admin] = await Promise.all([newUser(RUN), newUser(RUN), newUser(RUN)]);
  await makeAdmin(admin.id);
  admin = { ...admin, ...(await logIn(admin)) };
  await Promise.all([onboardSeller(seller), addCard(buyer)]);
}, 180_000);

const stripeUrl = () => twin().urls.stripe;

const ADDRESS = {
  country: 'ES',
  fullname: 'Jo Buyer',
  line1: 'Calle Mayor 1',
  line2: null,
  postalcode: '28013',
  city: 'Madrid',
  stateprovince: 'Madrid',
  instructions: null,
};

/** Books a physical offering delivered to the buyer's address. */
async function bookDelivered(user: TestUser, offeringId: string): Promise<Order> {
  const booked = await call<Order>('POST', `/api/users/${user.id}/offering/assigntoken2preorder`, {
    token: user.accessToken,
    body: { order: { offeringid: offeringId, quantity: 1, postaladdress: ADDRESS } },
  });
  expect(booked.status).toBe(201);
  return booked.json.data;
}

/** A physical item of the seller listed at `price`. */
async function listedPhysical(title: string, price: number) {
  const item = await putFinishedItem({
    creator: { id: seller.id, nick: seller.nick },
    copies: 1,
    product_type: 'physical',
    title,
  });
  return listApproved(seller, admin, item.id, { copies: 1, price });
}

/** The orders' dependencies with a timer whose start is lost (the execution never runs). */
function withoutTimers(real: OrdersDeps): OrdersDeps {
  return {
    ...real,
    startBookingExpiry: async () => undefined,
    startPayoutRelease: async () => undefined,
  };
}

/**
 * A digital order's 7-day payout hold over (its payout-release timer fires): once the order is
 * fulfilled, the shares go out.
 */
async function releaseHeld(orderId: string): Promise<void> {
  const record = await until(
    () => ordersDeps().repo.get(orderId),
    (current) => current?.status === 'fulfilled' && current.release_at !== null,
  );
  await releaseDue(ordersDeps(), orderId, new Date(Date.parse(record?.release_at as string)));
}

/** The sweeper as it runs `at` (its budget ample). */
const sweepAt = (at: number) =>
  sweepOrders(ordersDeps(), new Date(at), { remainingMs: () => 300_000 });

/** A digital item of the seller listed at `price` (paid, it is fulfilled; paid out after 7 days). */
async function listed(title: string, price: number, copies = 1) {
  const item = await putFinishedItem({
    creator: { id: seller.id, nick: seller.nick },
    copies,
    product_type: 'digital',
    title,
  });
  return listApproved(seller, admin, item.id, { copies, price });
}

async function book(user: TestUser, offeringId: string, quantity = 1): Promise<Order> {
  const answer = await call<Order>('POST', `/api/users/${user.id}/offering/assigntoken2preorder`, {
    token: user.accessToken,
    body: { order: { offeringid: offeringId, quantity, postaladdress: null } },
  });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

/** The saved-card payment call as a browser sends it (an Idempotency-Key when given). */
async function pay(user: TestUser, orderId: string, key?: string) {
  const response = await gatewayFetch('/api/payment-gateway/create-payment-intent', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify({ order_id: orderId }),
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    text: await response.clone().text(),
    json: (await response.json()) as { data: CardPayment; error: { code: string } },
  };
}

const orderOf = async (user: TestUser, orderId: string) =>
  (
    await call<Order>('POST', '/api/order/retrievebyid', {
      token: user.accessToken,
      body: { order_id: orderId },
    })
  ).json.data;

async function waitOrder(user: TestUser, orderId: string, done: (order: Order) => boolean) {
  return until(() => orderOf(user, orderId), done);
}

const walletOf = async (user: TestUser) =>
  (
    await call<{ items: WalletActivity[] }>('GET', '/api/payment-gateway/activity', {
      token: user.accessToken,
    })
  ).json.data.items;

/** The order's payments as Stripe has them: succeeded ones, with what was refunded of each. */
async function chargesOf(orderId: string) {
  return (await stripeState()).payments.filter(
    (payment) => payment.transfer_group === orderId && payment.status === 'succeeded',
  );
}

async function buyerCard(user: TestUser): Promise<string> {
  const card = (await listCards(paymentsDeps(), user.id, new Date())).payment_methods[0];
  if (card === undefined) throw new Error('no saved card');
  return card.id;
}

describe('one charge per order payment', () => {
  it('five calls at once (a double click, two tabs) confirm one PaymentIntent: one charge', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Five clicks', 1_500);
    const order = await book(buyer, offering.id);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => pay(buyer, order.id)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.json.data.status).toBe('succeeded');
    }
    expect(new Set(answers.map((answer) => answer.json.data.payment_intent_id)).size).toBe(1);
    const paid = await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    expect(paid).toMatchObject({ paid: 1_500, refunded: 0 });
    expect(paid.payments).toHaveLength(1);
    const charges = await chargesOf(order.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 1_500, refunded: 0 });
  });

  it('the same Idempotency-Key at once and again later gets the first answer, charged once', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Retried request', 1_600);
    const order = await book(buyer, offering.id);
    const key = `pay-${order.id}`;
    const [first, second] = await Promise.all([
      pay(buyer, order.id, key),
      pay(buyer, order.id, key),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    // One ran, the other waited for its answer and got it back as it was.
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    expect(JSON.parse(second.text).data).toEqual(JSON.parse(first.text).data);
    // The answer lost on a slow network: the browser retries with its key a while later.
    const retried = await pay(buyer, order.id, key);
    expect(retried).toMatchObject({ status: 200, replayed: true });
    expect(retried.json.data).toEqual(first.json.data);
    // The same key for another order is another request: refused.
    const other = await book(buyer, (await listed('Another order', 1_000)).id);
    const reused = await pay(buyer, other.id, key);
    expect(reused.status).toBe(409);
    expect(reused.json.error.code).toBe('idempotency.key_reused');
    await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    expect(await chargesOf(order.id)).toHaveLength(1);
  });

  it("paid on Stripe's page a moment before the saved card: the saved card is not charged", async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Page first', 1_700);
    const order = await book(buyer, offering.id);
    const page = await call<CheckoutSession>('POST', '/api/payment-gateway/checkout/create', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    expect(page.status).toBe(200);
    // The page's payment goes through while its webhooks are still on their way.
    await webhooks('hold', order.id);
    await enterCard(page.json.data.url, '4242424242424242');
    const card = await pay(buyer, order.id);
    expect(card.status).toBe(200);
    expect(card.json.data.status).toBe('succeeded');
    await webhooks('release', order.id);
    const paid = await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    expect(paid).toMatchObject({ paid: 1_700, refunded: 0 });
    const charges = await chargesOf(order.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.id).toBe(card.json.data.payment_intent_id);
  });

  it('a second payment of a paid order is refunded alone: the order stays paid, the copy the buyer’s', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Paid twice', 1_800);
    const order = await book(buyer, offering.id);
    const first = await pay(buyer, order.id);
    expect(first.json.data.status).toBe('succeeded');
    await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    // A payment page left open in another tab is paid too (its refund comes back as
    // charge.refunded, which must not be read as a refund of the order).
    const second = await payOutside(order.id, buyer.id, 1_800);
    const settled = await waitOrder(
      buyer,
      order.id,
      (current) => current.refunded === 1_800 && current.payments.length === 2,
    );
    // Let the refund's own webhooks arrive, then check nothing else moved.
    await until(
      async () => (await stripeState()).payments.find((payment) => payment.id === second.id),
      (payment) => payment?.refunded === 1_800,
    );
    // The lines come from the call, the webhooks and the refund as each gets there: all three.
    const wallet = await until(
      () => walletOf(buyer),
      (lines) => lines.filter((line) => line.order_id === order.id).length === 3,
    );
    const after = await orderOf(buyer, order.id);
    expect(after).toMatchObject({ status: 'fulfilled', paid: 3_600, refunded: 1_800 });
    expect(settled.payments.map((payment) => [payment.payment_intent_id, payment.status])).toEqual([
      [first.json.data.payment_intent_id, 'succeeded'],
      [second.id, 'refunded'],
    ]);
    const charges = await chargesOf(order.id);
    expect(charges.map((charge) => [charge.id, charge.refunded]).sort()).toEqual(
      [
        [first.json.data.payment_intent_id, 0],
        [second.id, 1_800],
      ].sort(),
    );
    // The seller is paid once (after the hold), from the first charge only.
    await releaseHeld(order.id);
    const transfers = (await stripeState()).transfers.filter(
      (transfer) => transfer.transfer_group === order.id,
    );
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.amount_reversed ?? 0).toBe(0);
    // The buyer's wallet: the order's payment, and the second charge with its refund.
    const lines = wallet.filter((line) => line.order_id === order.id);
    expect(lines.map((line) => [line.event, line.amount]).sort()).toEqual(
      [
        ['payment', 1_800],
        ['payment', 1_800],
        ['refund', 1_800],
      ].sort(),
    );
  });
});

describe('refunds, outages and cancels', () => {
  it("a refund made in Stripe's dashboard: the wallet line, and a full one cancels the order", async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Dashboard refund', 2_000);
    const order = await book(buyer, offering.id);
    const paid = await pay(buyer, order.id);
    // Paid out (after the hold): the seller's share left with its transfer.
    await releaseHeld(order.id);
    await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.length > 0 && transfers.every((entry) => entry.state === 'paid'),
    );
    const intent = paid.json.data.payment_intent_id as string;
    // Support refunds part of it in the dashboard: a line, the order unchanged.
    const part = await twinStripe().refunds.create({ payment_intent: intent, amount: 500 });
    const partial = await until(
      () => walletOf(buyer),
      (lines) => lines.some((line) => line.id === part.id),
    );
    expect(partial.find((line) => line.id === part.id)).toMatchObject({
      event: 'refund',
      amount: 500,
      order_id: order.id,
    });
    expect(await waitOrder(buyer, order.id, (current) => current.refunded === 500)).toMatchObject({
      status: 'fulfilled',
    });
    // Then the rest: the order is cancelled, the copy goes back, both refunds have their lines.
    const rest = await twinStripe().refunds.create({ payment_intent: intent });
    const cancelled = await waitOrder(buyer, order.id, (current) => current.status === 'cancelled');
    expect(cancelled.refunded).toBe(2_000);
    const lines = await until(
      () => walletOf(buyer),
      (current) => current.some((line) => line.id === rest.id),
    );
    expect(
      lines
        .filter((line) => line.order_id === order.id && line.event === 'refund')
        .map((line) => line.amount)
        .sort(),
    ).toEqual([1_500, 500]);
  });

  it('the card provider down: the buyer is told to try again, nothing is charged, the retry pays once', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Provider down', 2_100);
    const order = await book(buyer, offering.id);
    const card = await buyerCard(buyer);
    // Stripe answers 500 to every attempt (the SDK's own retries included).
    await injectFault(stripeUrl(), {
      method: 'POST',
      path: '/v1/payment_intents/*/confirm',
      match: card,
      fault: 'api_error',
      times: 3,
    });
    const down = await pay(buyer, order.id);
    expect(down.status).toBe(503);
    expect(down.json.error.code).toBe('market.buy.errors.card_provider');
    // Not a card's refusal: no payment error on the order, which can still be paid.
    const waiting = await orderOf(buyer, order.id);
    expect(waiting).toMatchObject({ status: 'payment_intent_created', payment_error: null });
    expect(waiting.actions).toContain('pay');
    expect(await chargesOf(order.id)).toHaveLength(0);
    // The answer of a confirm that went through is lost (3 times): the retry finds it paid.
    await injectFault(stripeUrl(), {
      method: 'POST',
      path: '/v1/payment_intents/*/confirm',
      match: card,
      fault: 'lost',
      times: 3,
    });
    const lost = await pay(buyer, order.id);
    expect(lost.status).toBe(503);
    const retried = await pay(buyer, order.id);
    expect(retried.status).toBe(200);
    expect(retried.json.data.status).toBe('succeeded');
    await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    expect(await chargesOf(order.id)).toHaveLength(1);
    await clearFaults(stripeUrl(), card);
  });

  it('a cancel whose copies the buyer listed since is refused, and nothing is refunded', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listedPhysical('Relisted', 2_200);
    const item = { id: offering.item.id };
    const order = await bookDelivered(buyer, offering.id);
    expect((await pay(buyer, order.id)).json.data.status).toBe('succeeded');
    await waitOrder(buyer, order.id, (current) => current.status === 'paid');
    // The buyer puts the copy on the market again: their listing blocks it.
    const locked = await lockPack(
      createItemsRepo({ doc: dynamoDocumentClient(), tableName: readEnv().tableName }),
      { itemId: item.id, ownerId: buyer.id, offeringId: `oF${RUN}relist`, want: 1, pack: 1 },
    );
    expect(locked.held).toBe(1);
    const cancel = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'cancel', reason: 'Out of stock' } },
    );
    expect(cancel.status).toBe(409);
    expect(cancel.json.error.code).toBe('orders.errors.copies_not_returnable');
    expect(await orderOf(buyer, order.id)).toMatchObject({ status: 'paid', refunded: 0 });
    expect((await chargesOf(order.id))[0]?.refunded).toBe(0);
  });

  it('a reversal Stripe refuses is recorded as owed, the rest goes on, and the next payout keeps it back', async (context) => {
    if (!hasCognito()) return context.skip();
    const account = (await paymentsDeps().repo.getRecord(seller.id))?.stripe_account_id;
    if (account === undefined) throw new Error('the seller has no account');
    const offering = await listed('Paid out, then refunded', 2_500);
    const order = await book(buyer, offering.id);
    const paid = await pay(buyer, order.id);
    const fulfilled = await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    expect(fulfilled.transfers).toHaveLength(0); // The buyer sees no transfers.
    await releaseHeld(order.id);
    const share = (
      await until(
        async () => (await orderOf(seller, order.id)).transfers,
        (transfers) => transfers.some((transfer) => transfer.state === 'paid'),
      )
    )[0]?.amount as number;
    // Stripe pays the seller's balance out to their bank: nothing is left to take back.
    await payOutAccount(stripeUrl(), account);
    await twinStripe().refunds.create({
      payment_intent: paid.json.data.payment_intent_id as string,
    });
    const cancelled = await waitOrder(
      seller,
      order.id,
      (current) => current.status === 'cancelled',
    );
    expect(cancelled.refunded).toBe(2_500);
    const refused = await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.some((transfer) => transfer.state === 'reversal_failed'),
    );
    expect(refused).toMatchObject([{ party: 'seller', amount: share, state: 'reversal_failed' }]);
    expect(await ordersDeps().repo.owedBy(seller.id, 'EUR')).toBe(share);
    // The seller's next sale: the share pays the debt off first.
    const next = await listed('Next sale', 5_000);
    const nextOrder = await book(buyer, next.id);
    await pay(buyer, nextOrder.id);
    await releaseHeld(nextOrder.id);
    const netted = await until(
      async () => (await orderOf(seller, nextOrder.id)).transfers,
      (transfers) => transfers.some((transfer) => transfer.state === 'paid'),
    );
    expect(netted[0]?.netted).toBe(share);
    expect(await ordersDeps().repo.owedBy(seller.id, 'EUR')).toBe(0);
    const made = (await stripeState()).transfers.filter(
      (transfer) => transfer.transfer_group === nextOrder.id,
    );
    expect(made.map((transfer) => transfer.amount)).toEqual([(netted[0]?.amount ?? 0) - share]);
  });
});

describe('timers and half-finished steps have a net: the order sweeper', () => {
  it('a booking whose expiry never ran is expired by the sweeper; its copy is free again', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Lost timer', 1_000);
    const deps = withoutTimers(ordersDeps());
    const order = await preorder(
      deps,
      {
        callerId: buyer.id,
        offeringId: offering.id,
        quantity: 1,
        postaladdress: null,
        idempotencyKey: undefined,
      },
      new Date(),
    );
    const end = Date.parse(order.booking_expires_at);
    // Within the grace after its end nothing happens (the timer may still be on its way).
    expect((await sweepAt(end + ORDER_SWEEP_GRACE_MS - 1_000)).swept).not.toContain(order.id);
    expect((await sweepAt(end + ORDER_SWEEP_GRACE_MS + 1_000)).swept).toContain(order.id);
    expect(await orderOf(buyer, order.id)).toMatchObject({ status: 'order_expired' });
    // Done: it left the sweeper's list.
    expect((await sweepAt(end + ORDER_SWEEP_GRACE_MS + 60_000)).swept).not.toContain(order.id);
    const other = await newUser(RUN);
    expect(await book(other, offering.id)).toMatchObject({ status: 'accepted' });
  });

  it('a shipped order whose payout-release never ran is paid out by the sweeper 14 days on', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listedPhysical('Lost release', 3_000);
    const order = await bookDelivered(buyer, offering.id);
    expect((await pay(buyer, order.id)).json.data.status).toBe('succeeded');
    await waitOrder(buyer, order.id, (current) => current.status === 'paid');
    const shippedAt = Date.now();
    await updateOrder(
      withoutTimers(ordersDeps()),
      {
        callerId: seller.id,
        orderId: order.id,
        body: { action: 'ship', carrier: 'UPS', tracking: '1Z999' },
      },
      new Date(shippedAt),
    );
    const release = shippedAt + RELEASE_AFTER_SHIPPING_MS;
    expect((await sweepAt(release - 60_000)).swept).not.toContain(order.id);
    expect((await sweepAt(release + ORDER_SWEEP_GRACE_MS + 1_000)).swept).toContain(order.id);
    const paidOut = await orderOf(seller, order.id);
    expect(paidOut.status).toBe('fulfilled');
    expect(paidOut.transfers.map((transfer) => transfer.state)).toEqual(['paid']);
  });

  it('a cancel whose refund Stripe could not make: the seller is told to retry, the sweeper refunds', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listedPhysical('Refund later', 2_300);
    const order = await bookDelivered(buyer, offering.id);
    const paid = await pay(buyer, order.id);
    await waitOrder(buyer, order.id, (current) => current.status === 'paid');
    const intent = paid.json.data.payment_intent_id as string;
    await injectFault(stripeUrl(), {
      method: 'POST',
      path: '/v1/refunds',
      match: intent,
      fault: 'api_error',
      // Down for a while: every attempt meanwhile (the SDK's retries, the payment's webhook).
      times: 100,
    });
    const cancel = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'cancel', reason: 'Broken in the shop' } },
    );
    expect(cancel.status).toBe(503);
    expect(cancel.json.error.code).toBe('payments.errors.provider');
    // The cancel stands with its copies back; the money has not moved yet.
    expect(await orderOf(seller, order.id)).toMatchObject({ status: 'cancelled', refunded: 0 });
    expect((await chargesOf(order.id))[0]?.refunded).toBe(0);
    // Stripe answers again; nobody presses anything again: the sweeper finishes the refund.
    await clearFaults(stripeUrl(), intent);
    const swept = await sweepAt(Date.now() + ORDER_SWEEP_GRACE_MS + 1_000);
    expect(swept.swept).toContain(order.id);
    expect(await orderOf(buyer, order.id)).toMatchObject({ status: 'cancelled', refunded: 2_300 });
    expect((await chargesOf(order.id))[0]?.refunded).toBe(2_300);
    expect(
      (await walletOf(buyer)).filter(
        (line) => line.order_id === order.id && line.event === 'refund',
      ),
    ).toHaveLength(1);
    expect((await sweepAt(Date.now() + 10 * 60_000)).swept).not.toContain(order.id);
  });
});

describe('reconciliation with Stripe', () => {
  it('a payment whose webhooks were lost for good is applied by the reconciliation; money Stripe moved that no order knows is reported', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Webhook lost', 1_900);
    const order = await book(buyer, offering.id);
    const page = await call<CheckoutSession>('POST', '/api/payment-gateway/checkout/create', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    // The payment's events never arrive (Stripe gave up on the endpoint), and the buyer never
    // comes back to the return page.
    await holdWebhooks(stripeUrl(), order.id);
    await enterCard(page.json.data.url, '4242424242424242');
    expect(await dropWebhooks(stripeUrl(), order.id)).toBeGreaterThan(0);
    expect(await orderOf(buyer, order.id)).toMatchObject({ status: 'payment_intent_created' });
    // And a transfer made outside the app (by hand in the dashboard) for that order.
    const account = (await paymentsDeps().repo.getRecord(seller.id))?.stripe_account_id as string;
    const stray = await twinStripe().transfers.create({
      amount: 100,
      currency: 'eur',
      destination: account,
      transfer_group: order.id,
      metadata: { order_id: order.id, party: 'seller' },
    });

    const report = await reconcileStripe(paymentsDeps(), new Date(), {
      remainingMs: () => 600_000,
    });
    expect(report.complete).toBe(true);
    expect(report.events.missed.length).toBeGreaterThan(0);
    const paid = await orderOf(buyer, order.id);
    expect(paid).toMatchObject({ status: 'fulfilled', paid: 1_900 });
    expect(await chargesOf(order.id)).toHaveLength(1);
    const lines = await walletOf(buyer);
    expect(
      lines.filter((line) => line.order_id === order.id && line.event === 'payment'),
    ).toHaveLength(1);
    expect(report.movements.findings).toContainEqual(
      expect.objectContaining({ order_id: order.id, ref: stray.id, code: 'transfer_unrecorded' }),
    );
    expect(await paymentsDeps().repo.listFindings(100)).toContainEqual(
      expect.objectContaining({ ref: stray.id, code: 'transfer_unrecorded' }),
    );
    // A second run finds nothing new: everything it applied is recorded now.
    const again = await reconcileStripe(paymentsDeps(), new Date(), {
      remainingMs: () => 600_000,
    });
    expect(again.events.missed).toEqual([]);
    expect(again.movements.findings.filter((finding) => finding.order_id === order.id)).toEqual([
      expect.objectContaining({ ref: stray.id }),
    ]);
  });
});

describe("disputes: the buyer's bank takes the payment back", () => {
  const disputeOf = async (user: TestUser, orderId: string, status: string) =>
    until(
      () => orderOf(user, orderId),
      (current) => current.dispute?.status === status,
    );

  it('lost on a paid-out digital order: the share is taken back (owed when the balance is short), the order cancelled, nothing paid twice', async (context) => {
    if (!hasCognito()) return context.skip();
    const account = (await paymentsDeps().repo.getRecord(seller.id))?.stripe_account_id as string;
    const offering = await listed('Disputed download', 2_600);
    const order = await book(buyer, offering.id);
    const paid = await pay(buyer, order.id);
    await releaseHeld(order.id);
    const share = (
      await until(
        async () => (await orderOf(seller, order.id)).transfers,
        (transfers) => transfers.some((transfer) => transfer.state === 'paid'),
      )
    )[0]?.amount as number;
    const owedBefore = await ordersDeps().repo.owedBy(seller.id, 'EUR');
    // Stripe already paid the seller's balance out: the share cannot be taken back.
    await payOutAccount(stripeUrl(), account);
    const dispute = await openDispute(stripeUrl(), {
      payment_intent: paid.json.data.payment_intent_id as string,
      reason: 'fraudulent',
    });
    const open = await disputeOf(seller, order.id, 'open');
    expect(open.dispute).toMatchObject({
      id: dispute.id,
      reason: 'fraudulent',
      amount: 2_600,
      stripe_status: 'needs_response',
    });
    expect(open.dispute?.evidence_due_by).toBe(
      new Date((dispute.evidence_details?.due_by ?? 0) * 1000).toISOString(),
    );
    expect(open.status).toBe('fulfilled');
    expect(open.actions).not.toContain('cancel');
    const clawed = await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.some((transfer) => transfer.state === 'reversal_failed'),
    );
    expect(clawed).toMatchObject([{ party: 'seller', amount: share, state: 'reversal_failed' }]);
    expect(await ordersDeps().repo.owedBy(seller.id, 'EUR')).toBe(owedBefore + share);
    // The seller is told; support sees it with the bank's deadline.
    const notices = await call<{
      notifications: { activity: string; payload: { orderId?: string } }[];
    }>('GET', `/api/notifications/${seller.id}`, { token: seller.accessToken });
    expect(
      notices.json.data.notifications.some(
        (notice) =>
          notice.activity === 'market_disputeopened' && notice.payload.orderId === order.id,
      ),
    ).toBe(true);
    const money = await call<MoneyOverview>('GET', '/api/admin/money', {
      token: admin.accessToken,
    });
    expect(money.status).toBe(200);
    expect(money.json.data.disputes).toContainEqual(
      expect.objectContaining({
        order_id: order.id,
        dispute: expect.objectContaining({ status: 'open' }),
      }),
    );
    expect(money.json.data.owed).toContainEqual(
      expect.objectContaining({ user_id: seller.id, nick: seller.nick }),
    );
    const refused = await call('GET', '/api/admin/money', { token: buyer.accessToken });
    expect(refused.status).toBe(403);
    // Support opens the order from there: the seller's view, read-only.
    const seen = await call<Order>('POST', '/api/order/retrievebyid', {
      token: admin.accessToken,
      body: { order_id: order.id },
    });
    expect(seen.status).toBe(200);
    expect(seen.json.data).toMatchObject({ id: order.id, role: 'seller', actions: [] });
    expect(
      (
        await call('POST', '/api/order/retrievebyid', {
          token: (await newUser(RUN)).accessToken,
          body: { order_id: order.id },
        })
      ).status,
    ).toBe(404);

    await closeDispute(stripeUrl(), dispute.id, 'lost');
    const lost = await disputeOf(buyer, order.id, 'lost');
    expect(lost).toMatchObject({ status: 'cancelled', cancel_reason: 'dispute_lost', refunded: 0 });
    // No refund of ours (the bank took the money back), the copy back with the seller.
    expect((await chargesOf(order.id))[0]?.refunded).toBe(0);
    const [copy] = await allCopies(ordersDeps().items, offering.item.id);
    expect(copy?.owner_id).toBe(seller.id);
    // Still owed once: nothing paid or taken twice.
    expect(await ordersDeps().repo.owedBy(seller.id, 'EUR')).toBe(owedBefore + share);
    expect(
      (await stripeState()).transfers.filter((transfer) => transfer.transfer_group === order.id),
    ).toHaveLength(1);
    const after = await call<MoneyOverview>('GET', '/api/admin/money', {
      token: admin.accessToken,
    });
    expect(after.json.data.disputes.map((entry) => entry.order_id)).not.toContain(order.id);
  });

  it('lost on a physical order not paid out yet: its held share is frozen, then never paid', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listedPhysical('Disputed parcel', 3_100);
    const order = await bookDelivered(buyer, offering.id);
    const paid = await pay(buyer, order.id);
    await waitOrder(buyer, order.id, (current) => current.status === 'paid');
    const dispute = await openDispute(stripeUrl(), {
      payment_intent: paid.json.data.payment_intent_id as string,
      reason: 'product_not_received',
    });
    await disputeOf(seller, order.id, 'open');
    const frozen = await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.length > 0 && transfers.every((entry) => entry.state === 'frozen'),
    );
    expect(frozen).toMatchObject([{ party: 'seller', state: 'frozen' }]);
    // The seller cannot cancel (a disputed payment cannot be refunded).
    const cancel = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'cancel', reason: 'late' } },
    );
    expect(cancel.status).toBe(409);
    await closeDispute(stripeUrl(), dispute.id, 'lost');
    const lost = await disputeOf(seller, order.id, 'lost');
    expect(lost.status).toBe('cancelled');
    // The cancel's effects follow its write: the frozen share is settled as never paid.
    const settled = await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.every((entry) => entry.state !== 'frozen'),
    );
    expect(settled.map((entry) => entry.state)).toEqual(['reversed']);
    expect(
      (await stripeState()).transfers.filter((transfer) => transfer.transfer_group === order.id),
    ).toHaveLength(0);
  });

  it('won on a paid-out order: the share taken back while it was open is paid again, once', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Dispute won', 2_700);
    const order = await book(buyer, offering.id);
    const paid = await pay(buyer, order.id);
    await releaseHeld(order.id);
    await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.some((transfer) => transfer.state === 'paid'),
    );
    const dispute = await openDispute(stripeUrl(), {
      payment_intent: paid.json.data.payment_intent_id as string,
    });
    await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.every((transfer) => transfer.state === 'reversed'),
    );
    await closeDispute(stripeUrl(), dispute.id, 'won');
    const won = await disputeOf(seller, order.id, 'won');
    expect(won.status).toBe('fulfilled');
    const repaid = await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.every((transfer) => transfer.state === 'paid'),
    );
    const made = (await stripeState()).transfers.filter(
      (transfer) => transfer.transfer_group === order.id,
    );
    // The first transfer taken back in full, a second one paying the share (less what the
    // seller's account owed, kept back): the seller keeps it once.
    const share = repaid[0];
    expect(made).toHaveLength(2);
    expect(made.filter((transfer) => transfer.amount_reversed === transfer.amount)).toHaveLength(1);
    expect(
      made.reduce((sum, transfer) => sum + transfer.amount - (transfer.amount_reversed ?? 0), 0),
    ).toBe((share?.amount ?? 0) - (share?.netted ?? 0));
  });
});

describe("Stripe's other events: a failed bank payout, a disconnected account, a delayed payment", () => {
  it("a payout to the seller's bank fails: the seller is told to check their bank details", async (context) => {
    if (!hasCognito()) return context.skip();
    const account = (await paymentsDeps().repo.getRecord(seller.id))?.stripe_account_id as string;
    const offering = await listed('Paid to a closed bank', 1_200);
    const order = await book(buyer, offering.id);
    await pay(buyer, order.id);
    await releaseHeld(order.id);
    await until(
      async () => (await orderOf(seller, order.id)).transfers,
      (transfers) => transfers.some((transfer) => transfer.state === 'paid'),
    );
    const [payout] = await payOutAccount(stripeUrl(), account, { fail: 'account_closed' });
    const notices = await until(
      async () =>
        (
          await call<{ notifications: { activity: string; payload: { status?: string } }[] }>(
            'GET',
            `/api/notifications/${seller.id}`,
            { token: seller.accessToken },
          )
        ).json.data.notifications,
      (list) => list.some((notice) => notice.activity === 'minter_payoutfailed'),
    );
    expect(notices.find((notice) => notice.activity === 'minter_payoutfailed')).toMatchObject({
      payload: { status: 'account_closed' },
    });
    expect(payout?.status).toBe('failed');
  });

  it('a seller disconnects their account: it is forgotten, and they are no longer a seller', async (context) => {
    if (!hasCognito()) return context.skip();
    const leaving = await newUser(RUN);
    await onboardSeller(leaving);
    const account = (await paymentsDeps().repo.getRecord(leaving.id))?.stripe_account_id as string;
    await deauthorize(stripeUrl(), account);
    await until(
      () => paymentsDeps().repo.getRecord(leaving.id),
      (record) => record?.stripe_account_id === undefined,
    );
    const profile = await until(
      async () =>
        (
          await call<{ onboarding_status: string | null; is_seller: boolean }>(
            'GET',
            `/api/users/${leaving.id}/user-profile`,
            { token: leaving.accessToken },
          )
        ).json.data,
      (current) => current.is_seller === false,
    );
    expect(profile).toMatchObject({ onboarding_status: 'become_minter', is_seller: false });
  });

  it('a Checkout payment that completes later (async_payment_succeeded) pays the order', async (context) => {
    if (!hasCognito()) return context.skip();
    const offering = await listed('Delayed payment', 1_300);
    const order = await book(buyer, offering.id);
    const page = await call<CheckoutSession>('POST', '/api/payment-gateway/checkout/create', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    // Its first events never arrive; the delayed method's own event does.
    await holdWebhooks(stripeUrl(), order.id);
    await enterCard(page.json.data.url, '4242424242424242');
    await dropWebhooks(stripeUrl(), order.id);
    await emitEvent(
      stripeUrl(),
      'checkout.session.async_payment_succeeded',
      page.json.data.session_id,
    );
    const paid = await waitOrder(buyer, order.id, (current) => current.status === 'fulfilled');
    expect(paid.paid).toBe(1_300);
  });
});
