import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, useTwinEnv } from '../../infra/local/test/twin-context';
import {
  call,
  hasCognito,
  logIn,
  makeAdmin,
  newUser,
  type TestUser,
} from '../accounts/testing/session';
import { putFinishedItem } from '../items/testing/items';
import type { History } from '../../shared/schemas/items';
import type { OfferingDetail } from '../../shared/schemas/offerings';
import type {
  CardPayment,
  CheckoutSession,
  Order,
  OrderPage,
  PostalAddress,
} from '../../shared/schemas/orders';
import { allCopies } from '../items/index';
import { putSellers, sellerProfile } from '../profiles/testing/sellers';
import { expireBooking, preorder, releaseDue } from './booking';
import { payWithSavedCard, paymentIntentChanged } from './payment';
import type { OrdersDeps } from './ports';
import { ordersDeps } from './orders.deps';
import { updateOrder } from './fulfilment';
import {
  addCard,
  enterCard,
  holdingMissedOnce,
  listApproved,
  onboardSeller,
  payOutside,
  stripeState,
  twinStripe,
  submitForm,
  until,
  webhooks,
} from './testing/market';

/**
 * Buying on the twin (issue 12): sellers onboarded on the Stripe twin's hosted form, offerings
 * listed and approved through the listing workflow, buyers paying with a saved card or on the
 * hosted Checkout page; the webhooks come from the Stripe twin, the booking expiry runs on the
 * local workflow runner.
 */
const RUN = `or${Date.now().toString(36)}`;
let seller: TestUser;
let buyer: TestUser;
let admin: TestUser;

const ADDRESS: PostalAddress = {
  country: 'ES',
  fullname: 'Jo Buyer',
  line1: 'Calle Mayor 1',
  line2: null,
  postalcode: '28013',
  city: 'Madrid',
  stateprovince: 'Madrid',
  instructions: null,
};

beforeAll(async () => {
  useTwinEnv();
  if (!hasCognito()) return;
  [seller, buyer, admin] = await Promise.all([newUser(RUN), newUser(RUN), newUser(RUN)]);
  await makeAdmin(admin.id);
  admin = { ...admin, ...(await logIn(admin)) };
  await Promise.all([onboardSeller(seller), addCard(buyer)]);
}, 180_000);

function book(
  user: TestUser,
  offeringId: string,
  quantity: number,
  postaladdress: PostalAddress | null = null,
  key?: string,
) {
  return gatewayFetch(`/api/users/${user.id}/offering/assigntoken2preorder`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.accessToken}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify({ order: { offeringid: offeringId, quantity, postaladdress } }),
  }).then(async (response) => ({
    status: response.status,
    json: (await response.json()) as { data: Order; error: { code: string } },
  }));
}

const orderOf = (user: TestUser, orderId: string) =>
  call<Order>('POST', '/api/order/retrievebyid', {
    token: user.accessToken,
    body: { order_id: orderId },
  });

const offeringOf = (user: TestUser, offeringId: string) =>
  call<OfferingDetail>('POST', `/api/users/${user.id}/offering/getofferingbyid/${offeringId}`, {
    token: user.accessToken,
    body: {},
  });

async function waitStatus(user: TestUser, orderId: string, status: Order['status']) {
  return (
    await until(
      () => orderOf(user, orderId),
      (answer) => answer.json.data?.status === status,
    )
  ).json.data;
}

/**
 * The orders dependencies with their transactions observed: `first` runs before the first one is
 * written (to hold it at a chosen moment), `after` after each with whether it was written.
 */
function gatedCommits(
  real: OrdersDeps,
  first: () => Promise<void>,
  after: (committed: boolean) => void = () => undefined,
): { deps: OrdersDeps; commits: () => number } {
  let commits = 0;
  const deps: OrdersDeps = {
    ...real,
    repo: {
      ...real.repo,
      async commit(pieces) {
        commits += 1;
        if (commits === 1) await first();
        const committed = await real.repo.commit(pieces);
        after(committed);
        return committed;
      },
    },
  };
  return { deps, commits: () => commits };
}

describe.runIf(hasCognito())('buying on the twin', () => {
  it('books, pays with the saved card, and owns digital copies with their provenance; the seller is paid after the 7-day hold', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 4,
      product_type: 'digital',
      title: 'Song',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 3, price: 1999 });

    // A retried booking (same Idempotency-Key) is the same order.
    const key = `${RUN}-book-1`;
    const [first, again] = await Promise.all([
      book(buyer, offering.id, 2, null, key),
      book(buyer, offering.id, 2, null, key),
    ]);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(first.json.data.id);
    const order = first.json.data;
    expect(order).toMatchObject({
      status: 'accepted',
      delivery: 'none',
      total: 3998,
      due_now: 3998,
      role: 'buyer',
      actions: ['pay'],
    });
    expect(order.lineItems[0]?.nftuniqueids).toHaveLength(2);
    // The split of the single payment: 2 % fee, the rest to the seller (a first sale).
    expect(order.split).toMatchObject({ gross: 3998, fee: 80, seller: 3918, royalty: 0 });

    const paid = await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    expect(paid.status).toBe(200);
    expect(paid.json.data.status).toBe('succeeded');

    // Digital: fulfilled at payment, the seller's share held for the 7-day payout hold.
    const done = await waitStatus(buyer, order.id, 'fulfilled');
    expect(done.paid).toBe(3998);
    expect(done.timeline.map((entry) => entry.label)).toEqual([
      'accepted',
      'payment_intent_created',
      'payment_intent_success',
      'paid',
    ]);
    const held = (await orderOf(seller, order.id)).json.data;
    expect(held.transfers).toMatchObject([{ party: 'seller', amount: 3918, state: 'held' }]);
    const releaseAt = Date.parse(held.release_at as string);
    expect(releaseAt - Date.parse(done.payments[0]?.paid_at as string)).toBe(7 * 24 * 3_600_000);
    // The hold's timer (payout-release) fires: the share is transferred from the charge.
    expect(await releaseDue(ordersDeps(), order.id, new Date(releaseAt))).toMatchObject({
      status: 'fulfilled',
    });
    const settled = await until(
      () => orderOf(seller, order.id),
      (answer) => answer.json.data?.transfers.every((entry) => entry.state === 'paid') === true,
    );
    expect(settled.json.data.transfers).toMatchObject([
      { party: 'seller', amount: 3918, state: 'paid' },
    ]);
    const stripe = await stripeState();
    const transfers = stripe.transfers.filter((entry) => entry.transfer_group === order.id);
    expect(transfers.map((entry) => entry.amount)).toEqual([3918]);
    expect(transfers[0]?.source_transaction).toMatch(/^ch_/);

    // The copies are the buyer's, each with a `sold` record carrying the price and the order.
    const [copyId] = done.lineItems[0]?.nftuniqueids ?? [];
    const history = await call<History>(
      'GET',
      `/api/users/${buyer.id}/token/gethistoric/${copyId}`,
      { token: buyer.accessToken },
    );
    expect(history.json.data.verified).toBe(true);
    expect(history.json.data.records.at(-1)).toMatchObject({
      event: 'sold',
      from_id: seller.id,
      to_id: buyer.id,
      ref: order.id,
      price: { amount: 1999, currency: 'EUR' },
    });

    // The offering has one copy left; the market shows it.
    const after = await offeringOf(buyer, offering.id);
    expect(after.json.data.copies_left).toBe(1);

    // Both sides see it in their market activity; the wallet lists the payment and the payout.
    const activity = await call<OrderPage>('GET', '/api/order/retrievemarket', {
      token: seller.accessToken,
    });
    expect(activity.json.data.items.map((entry) => [entry.id, entry.role])).toContainEqual([
      order.id,
      'seller',
    ]);
    const wallet = await call<{
      items: { event: string; type: string; amount: number; order_id: string }[];
    }>('GET', '/api/payment-gateway/activity', { token: seller.accessToken });
    expect(
      wallet.json.data.items
        .filter((entry) => entry.order_id === order.id)
        .map((entry) => [entry.event, entry.type, entry.amount]),
    ).toEqual([['payout', 'sale', 3918]]);
  });

  it('pays a physical order on the Checkout page; webhooks 3× shuffled give one sale; ship, confirm, payouts', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 2,
      title: 'Cup',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 2, price: 5000 });
    const missing = await book(buyer, offering.id, 1);
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('market.buy.errors.address_required');
    const abroad = await book(buyer, offering.id, 1, { ...ADDRESS, country: 'FR' });
    expect(abroad.json.error.code).toBe('market.buy.errors.country');

    const booked = await book(buyer, offering.id, 1, ADDRESS);
    expect(booked.status).toBe(201);
    const order = booked.json.data;
    expect(order.postaladdress).toMatchObject({ city: 'Madrid' });

    const page = await call<CheckoutSession>('POST', '/api/payment-gateway/checkout/create', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    expect(page.status).toBe(200);
    // Held: the order is paid only when the webhooks arrive, each delivered three times.
    await webhooks('hold', order.id);
    const back = await enterCard(page.json.data.url, '4242424242424242');
    expect(back).toContain(`/account/orders/${order.id}?session_id=`);
    expect((await orderOf(buyer, order.id)).json.data.status).toBe('payment_intent_created');
    await webhooks('release', order.id, { copies: 3, order: 'shuffled' });
    const paid = await waitStatus(buyer, order.id, 'paid');
    expect(paid.payments).toMatchObject([{ kind: 'full', amount: 5000, status: 'succeeded' }]);
    expect(paid.payments[0]?.receipt_url).toMatch(/^http/);
    expect(paid.actions).toEqual([]);

    // The seller ships; the payouts wait for the buyer.
    const sellerView = await orderOf(seller, order.id);
    expect(sellerView.json.data.actions).toEqual(['ship', 'cancel']);
    const badShip = await call('POST', `/api/users/${seller.id}/offering/updateorder/${order.id}`, {
      token: seller.accessToken,
      body: { action: 'ship', carrier: '', tracking: 'X' },
    });
    expect(badShip.status).toBe(400);
    const shipped = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'ship', carrier: 'SEUR', tracking: 'AB123' } },
    );
    expect(shipped.status).toBe(200);
    expect(shipped.json.data).toMatchObject({
      fulfilment: 'shipped',
      shipment: { carrier: 'SEUR', tracking: 'AB123' },
    });
    expect(shipped.json.data.transfers.every((entry) => entry.state === 'held')).toBe(true);
    // Shipped: the seller can no longer cancel; only the buyer confirms.
    const late = await call('POST', `/api/users/${seller.id}/offering/updateorder/${order.id}`, {
      token: seller.accessToken,
      body: { action: 'cancel' },
    });
    expect(late.status).toBe(409);
    const notBuyer = await call(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      {
        token: seller.accessToken,
        body: { action: 'confirm_receipt' },
      },
    );
    expect(notBuyer.status).toBe(403);
    const received = await call<Order>(
      'POST',
      `/api/users/${buyer.id}/offering/updateorder/${order.id}`,
      { token: buyer.accessToken, body: { action: 'confirm_receipt' } },
    );
    expect(received.json.data.status).toBe('fulfilled');

    // Exactly one sale for three deliveries of each event: one charge, one transfer.
    const stripe = await stripeState();
    expect(stripe.payments.filter((entry) => entry.transfer_group === order.id)).toHaveLength(1);
    expect(
      stripe.transfers.filter((entry) => entry.transfer_group === order.id).map((e) => e.amount),
    ).toEqual([4900]);
    const sold = await offeringOf(seller, offering.id);
    expect(sold.json.data.copies_left).toBe(1);
  });

  it('the seller cancels a paid order: a full refund, the copies back with a refunded record, once', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 3,
      title: 'Vase',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 3, price: 3000 });
    const booked = await book(buyer, offering.id, 2, ADDRESS);
    const order = booked.json.data;
    await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    await waitStatus(buyer, order.id, 'paid');
    // The buyer cannot cancel; the seller can, before shipping.
    const notSeller = await call(
      'POST',
      `/api/users/${buyer.id}/offering/updateorder/${order.id}`,
      {
        token: buyer.accessToken,
        body: { action: 'cancel' },
      },
    );
    expect(notSeller.status).toBe(403);
    const cancelled = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'cancel', reason: 'Broken in the workshop' } },
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Broken in the workshop',
      refunded: 6000,
    });
    // A second cancel (a double click) answers the order as it is.
    const twice = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'cancel' } },
    );
    expect(twice.json.data.status).toBe('cancelled');
    // charge.refunded (our own refund) arrives too: still one refund of the whole payment.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stripe = await stripeState();
    const payments = stripe.payments.filter((entry) => entry.transfer_group === order.id);
    expect(payments.map((entry) => [entry.amount, entry.refunded])).toEqual([[6000, 6000]]);
    const final = await orderOf(buyer, order.id);
    expect(final.json.data).toMatchObject({ status: 'cancelled', refunded: 6000 });
    expect(final.json.data.transfers.every((entry) => entry.state === 'reversed')).toBe(true);
    // The copies are the seller's again, each with its refunded record after the sale.
    for (const copyId of final.json.data.lineItems[0]?.nftuniqueids ?? []) {
      const history = await call<History>(
        'GET',
        `/api/users/${seller.id}/token/gethistoric/${copyId}`,
        { token: seller.accessToken },
      );
      expect(history.json.data.verified).toBe(true);
      expect(history.json.data.records.map((record) => [record.event, record.to_id])).toEqual([
        ['minted', seller.id],
        ['sold', buyer.id],
        ['refunded', seller.id],
      ]);
    }
  });

  it("a cancel whose reads of the buyer's holding interleave another move still returns the copies once", async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 2,
      title: 'Jug',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 2, price: 1500 });
    const order = (await book(buyer, offering.id, 2, ADDRESS)).json.data;
    await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    await waitStatus(buyer, order.id, 'paid');
    // The buyer's holding is first read short, as between the steps of another move of it.
    const real = ordersDeps();
    const interleaved = holdingMissedOnce(real, buyer.id);
    const cancelled = await updateOrder(
      interleaved.deps,
      { callerId: seller.id, orderId: order.id, body: { action: 'cancel', reason: null } },
      new Date(),
    );
    expect(interleaved.missed()).toBe(true);
    expect(cancelled).toMatchObject({ status: 'cancelled', refunded: 3000 });
    const copies = await allCopies(real.items, item.id);
    expect(copies.map((copy) => [copy.owner_id, copy.status])).toEqual([
      [seller.id, 'available'],
      [seller.id, 'available'],
    ]);
    expect(await real.items.getHolding(buyer.id, item.id)).toBeUndefined();
    expect((await real.items.getHolding(seller.id, item.id))?.count).toBe(2);
  });

  it('a payment after the booking expired is honoured when the copies are free, else refunded', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 1,
      product_type: 'digital',
      title: 'Poem',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 1, price: 700 });
    const deps = ordersDeps();
    const later = new Date(Date.now() + 6 * 60_000);

    // Expired, nobody took the copy: the late payment is honoured.
    const first = (await book(buyer, offering.id, 1)).json.data;
    // A payment page was opened: the expiry closes it, and the order forgets it.
    const opened = await call<CheckoutSession>('POST', '/api/payment-gateway/checkout/create', {
      token: buyer.accessToken,
      body: { order_id: first.id },
    });
    expect(opened.status).toBe(200);
    expect(await expireBooking(deps, first.id, later)).toMatchObject({ status: 'order_expired' });
    await until(
      () => deps.repo.get(first.id),
      (record) => record?.session_id === null,
    );
    const closed = await twinStripe().checkout.sessions.retrieve(opened.json.data.session_id);
    expect(closed.status).toBe('expired');
    const refused = await call('POST', '/api/payment-gateway/checkout/create', {
      token: buyer.accessToken,
      body: { order_id: first.id },
    });
    expect(refused.status).toBe(409);
    expect((refused.json as { error: { code: string } }).error.code).toBe(
      'checkout.errors.order_expired',
    );
    await payOutside(first.id, buyer.id, 700);
    const honoured = await waitStatus(buyer, first.id, 'fulfilled');
    expect(honoured.paid).toBe(700);
    expect((await offeringOf(seller, offering.id)).json.data.status).toBe('sold');
    // A second payment of the paid order (a page left open) is refunded, not kept.
    const second = await payOutside(first.id, buyer.id, 700);
    const kept = (
      await until(
        () => orderOf(buyer, first.id),
        (answer) => answer.json.data?.refunded === 700,
      )
    ).json.data;
    // Paid twice, one of them returned: the order keeps 700.
    expect(kept).toMatchObject({ status: 'fulfilled', paid: 1400, refunded: 700 });
    expect(
      kept.payments.map((payment) => [payment.payment_intent_id, payment.status]),
    ).toContainEqual([second.id, 'refunded']);

    // Another offering: the copy is booked by someone else meanwhile, so the late payment is
    // refunded at once and the buyer is told.
    const item2 = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 1,
      product_type: 'digital',
      title: 'Essay',
    });
    const offering2 = await listApproved(seller, admin, item2.id, { copies: 1, price: 900 });
    const late = (await book(buyer, offering2.id, 1)).json.data;
    await expireBooking(deps, late.id, later);
    const other = await newUser(RUN);
    const taken = (await book(other, offering2.id, 1)).json.data;
    expect(taken.status).toBe('accepted');
    await payOutside(late.id, buyer.id, 900);
    await waitStatus(buyer, late.id, 'payment_expired');
    // The refund follows the status (an effect of the same event, written after it).
    const expired = (
      await until(
        () => orderOf(buyer, late.id),
        (answer) => answer.json.data?.refunded === 900,
      )
    ).json.data;
    expect(expired).toMatchObject({ status: 'payment_expired', refunded: 900 });
    expect((await orderOf(other, taken.id)).json.data.status).toBe('accepted');
  });

  it('a declined card keeps the booking; a card needing authentication pays after the bank', async () => {
    const declined = await newUser(RUN);
    await addCard(declined, '4000000000000341');
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 2,
      product_type: 'digital',
      title: 'Print',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 2, price: 1200 });
    const order = (await book(declined, offering.id, 1)).json.data;
    const refusedCard = await call<CardPayment>(
      'POST',
      '/api/payment-gateway/create-payment-intent',
      { token: declined.accessToken, body: { order_id: order.id } },
    );
    expect(refusedCard.status).toBe(200);
    expect(refusedCard.json.data).toMatchObject({
      status: 'failed',
      error: 'checkout.errors.card_declined',
    });
    const still = (await orderOf(declined, order.id)).json.data;
    expect(still.status).toBe('payment_intent_created');
    expect(still.actions).toEqual(['pay']);
    expect(still.payment_error).not.toBeNull();

    const strict = await newUser(RUN);
    await addCard(strict, '4000002500003155');
    const second = (await book(strict, offering.id, 1)).json.data;
    const asked = await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: strict.accessToken,
      body: { order_id: second.id },
    });
    expect(asked.json.data.status).toBe('requires_action');
    expect(asked.json.data.next_action_url).toMatch(/\/authenticate\/pi_/);
    expect((await orderOf(strict, second.id)).json.data.status).toBe('payment_intent_created');
    const back = await submitForm(asked.json.data.next_action_url as string, {
      choice: 'complete',
    });
    expect(back).toContain(`/account/orders/${second.id}`);
    await waitStatus(strict, second.id, 'fulfilled');
  });

  it('200 buyers racing for 10 copies: exactly 10 bookings, 10 paid orders, nothing oversold', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 10,
      product_type: 'digital',
      title: 'Limited',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 10, price: 500 });
    const buyers = Array.from({ length: 200 }, (_, index) =>
      sellerProfile(`${RUN}r${index}`.slice(0, 20), 0),
    );
    await putSellers(...buyers);
    const deps = ordersDeps();
    const outcomes = await Promise.allSettled(
      buyers.map((profile) =>
        preorder(
          deps,
          {
            callerId: profile.id,
            offeringId: offering.id,
            quantity: 1,
            postaladdress: null,
            idempotencyKey: undefined,
          },
          new Date(),
        ),
      ),
    );
    const booked = outcomes.flatMap((outcome) =>
      outcome.status === 'fulfilled' ? [outcome.value] : [],
    );
    const refusals = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as { code?: string }).code] : [],
    );
    expect(booked).toHaveLength(10);
    expect(new Set(refusals)).toEqual(new Set(['market.buy.errors.booked']));
    const serials = booked.flatMap((order) => order.lineItems[0]?.nftuniqueids ?? []);
    expect(new Set(serials).size).toBe(10);

    await Promise.all(booked.map((order) => payOutside(order.id, order.buyer.id, 500)));
    const states = await until(
      () => Promise.all(booked.map((order) => deps.repo.get(order.id))),
      (records) => records.every((record) => record?.status === 'fulfilled'),
      60_000,
    );
    expect(states).toHaveLength(10);
    const sold = await offeringOf(seller, offering.id);
    expect(sold.json.data).toMatchObject({ status: 'sold', copies_left: 0 });
    const copies = await allCopies(deps.items, item.id);
    const owners = copies.map((copy) => copy.owner_id);
    expect(new Set(owners).size).toBe(10);
    expect(owners).not.toContain(seller.id);
    expect(copies.every((copy) => copy.status === 'available' && copy.order_id === undefined)).toBe(
      true,
    );
  });

  it('a deposit order: the deposit at checkout, the balance off session when ready, or in checkout when the card is gone', async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 2,
      product_type: 'digital',
      title: 'Commission',
    });
    const offering = await listApproved(seller, admin, item.id, {
      copies: 2,
      price: 5000,
      payment_mode: 'deposit',
      deposit: 1000,
    });
    const order = (await book(buyer, offering.id, 1)).json.data;
    expect(order).toMatchObject({ payment_mode: 'deposit', total: 5000, due_now: 1000 });
    const deposit = await call<CardPayment>('POST', '/api/payment-gateway/create-payment-intent', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    expect(deposit.json.data.status).toBe('succeeded');
    const held = await waitStatus(buyer, order.id, 'checkout_complete');
    expect(held).toMatchObject({ paid: 1000, balance_due: 4000 });
    const sellerSide = await orderOf(seller, order.id);
    expect(sellerSide.json.data.actions).toEqual(['ready', 'cancel']);
    const ready = await call<Order>(
      'POST',
      `/api/users/${seller.id}/offering/updateorder/${order.id}`,
      { token: seller.accessToken, body: { action: 'ready' } },
    );
    expect(ready.status).toBe(200);
    const done = await waitStatus(buyer, order.id, 'fulfilled');
    expect(done.payments.map((payment) => [payment.kind, payment.amount, payment.status])).toEqual([
      ['deposit', 1000, 'succeeded'],
      ['balance', 4000, 'succeeded'],
    ]);
    expect(done.balance_due).toBe(0);
    // After the payout hold, one transfer per charge to the seller: 98 % of each.
    await releaseDue(ordersDeps(), order.id, new Date(Date.parse(done.release_at as string)));
    const paidOut = await until(
      () => orderOf(seller, order.id),
      (answer) =>
        answer.json.data?.transfers.length === 2 &&
        answer.json.data.transfers.every((entry) => entry.state === 'paid'),
    );
    expect(paidOut.json.data.transfers.map((entry) => entry.amount).sort()).toEqual([3920, 980]);

    // Another buyer removes the card after the deposit: the balance cannot be charged, the buyer
    // is asked to pay it, and pays on the Checkout page.
    const later = await newUser(RUN);
    await addCard(later);
    const second = (await book(later, offering.id, 1)).json.data;
    await call('POST', '/api/payment-gateway/create-payment-intent', {
      token: later.accessToken,
      body: { order_id: second.id },
    });
    await waitStatus(later, second.id, 'checkout_complete');
    const cards = await call<{ payment_methods: { id: string }[] }>(
      'GET',
      '/api/payment-gateway/payment-methods',
      { token: later.accessToken },
    );
    for (const card of cards.json.data.payment_methods) {
      await call('POST', '/api/payment-gateway/remove-payment-method', {
        token: later.accessToken,
        body: { payment_method: card.id },
      });
    }
    await call('POST', `/api/users/${seller.id}/offering/updateorder/${second.id}`, {
      token: seller.accessToken,
      body: { action: 'ready' },
    });
    const due = (await orderOf(later, second.id)).json.data;
    expect(due).toMatchObject({ status: 'checkout_complete', actions: ['pay'] });
    expect(due.payment_error).toBe('checkout.errors.no_card');
    const page = await call<CheckoutSession>('POST', '/api/payment-gateway/checkout/create', {
      token: later.accessToken,
      body: { order_id: second.id },
    });
    expect(page.status).toBe(200);
    await enterCard(page.json.data.url, '4242424242424242');
    const settled = await waitStatus(later, second.id, 'fulfilled');
    expect(settled.payments.map((payment) => payment.kind)).toEqual(['deposit', 'balance']);
  });

  it("a webhook that loses the sale's last step to the saved-card call still pays the seller", async () => {
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 1,
      product_type: 'digital',
      title: 'Raced song',
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 1, price: 2500 });
    const order = (await book(buyer, offering.id, 1)).json.data;
    // The gateway's own delivery waits; this test delivers the event itself, at the worst time.
    await webhooks('hold', order.id);
    const real = ordersDeps();
    // The saved-card call records the payment, then stops just before it writes the sale (the
    // copy to the buyer)…
    let reachSale!: () => void;
    const atSale = new Promise<void>((resolve) => (reachSale = resolve));
    let letSaleGo!: () => void;
    const saleGoes = new Promise<void>((resolve) => (letSaleGo = resolve));
    let saleWritten!: () => void;
    const written = new Promise<void>((resolve) => (saleWritten = resolve));
    const byCall = gatedCommits(
      real,
      async () => {
        reachSale();
        await saleGoes;
      },
      (committed) => {
        if (committed) saleWritten();
      },
    );
    const paying = payWithSavedCard(
      byCall.deps,
      { callerId: buyer.id, orderId: order.id, paymentMethod: undefined },
      new Date(),
    );
    await atSale;
    const paidAt = await real.repo.get(order.id);
    expect(paidAt?.status).toBe('payment_intent_success');
    const intentId = paidAt?.payments[0]?.payment_intent_id ?? '';
    // …while the webhook finds the order paid, resumes the sale (which turns the call's write
    // away) and is about to write it too; the call reads again and writes first. The webhook's
    // write is refused, and it finds the order fulfilled by the call.
    const byWebhook = gatedCommits(real, async () => {
      letSaleGo();
      await written;
    });
    await paymentIntentChanged(byWebhook.deps, intentId, new Date());
    expect(await paying).toMatchObject({ status: 'succeeded' });
    expect([byCall.commits(), byWebhook.commits()]).toEqual([2, 1]);
    // The call left the sale's aftermath to the webhook, which did it: the seller's share (98 %)
    // is held for the payout hold and its timer started, the buyer owns the copy, the offering is
    // sold out; at the hold's end the seller is paid.
    const settled = await real.repo.get(order.id);
    expect(settled?.status).toBe('fulfilled');
    expect(settled?.transfers.map((entry) => [entry.party, entry.amount, entry.state])).toEqual([
      ['seller', 2450, 'held'],
    ]);
    await releaseDue(real, order.id, new Date(Date.parse(settled?.release_at as string)));
    expect(
      (await real.repo.get(order.id))?.transfers.map((entry) => [entry.party, entry.state]),
    ).toEqual([['seller', 'paid']]);
    expect((await real.items.getHolding(buyer.id, item.id))?.count).toBe(1);
    expect((await offeringOf(buyer, offering.id)).json.data.copies_left).toBe(0);
    const wallet = await call<{ items: { event: string; amount: number; order_id: string }[] }>(
      'GET',
      '/api/payment-gateway/activity',
      { token: buyer.accessToken },
    );
    expect(
      wallet.json.data.items
        .filter((entry) => entry.order_id === order.id)
        .map((entry) => [entry.event, entry.amount]),
    ).toEqual([['payment', 2500]]);
    // Stripe's own deliveries, late and twice, change nothing: one transfer.
    await webhooks('release', order.id, { copies: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stripe = await stripeState();
    expect(
      stripe.transfers.filter((entry) => entry.transfer_group === order.id).map((e) => e.amount),
    ).toEqual([2450]);
  });

  it('a beneficiary without a payout account is paid once they onboard', async () => {
    const beneficiary = await newUser(RUN);
    const item = await putFinishedItem({
      creator: { id: seller.id, nick: seller.nick },
      copies: 1,
      product_type: 'digital',
      title: 'Shared song',
      royalty: 10,
      beneficiary: { nick: beneficiary.nick, share: 25, user_id: beneficiary.id },
    });
    const offering = await listApproved(seller, admin, item.id, { copies: 1, price: 10_000 });
    const order = (await book(buyer, offering.id, 1)).json.data;
    // A first sale: the beneficiary's 25 % is of the creator's part (the sale less the fee).
    expect(order.split).toMatchObject({ fee: 200, beneficiary: 2450, seller: 7350, royalty: 0 });
    await call('POST', '/api/payment-gateway/create-payment-intent', {
      token: buyer.accessToken,
      body: { order_id: order.id },
    });
    // The payout hold over, the shares go out: the beneficiary's waits for an account.
    const fulfilled = await waitStatus(buyer, order.id, 'fulfilled');
    await releaseDue(ordersDeps(), order.id, new Date(Date.parse(fulfilled.release_at as string)));
    const waiting = await until(
      () => orderOf(seller, order.id),
      (answer) =>
        answer.json.data?.transfers.some((entry) => entry.state === 'waiting_account') === true &&
        answer.json.data.transfers.some((entry) => entry.state === 'paid'),
    );
    expect(
      waiting.json.data.transfers.map((entry) => [entry.party, entry.amount, entry.state]),
    ).toEqual([
      ['seller', 7350, 'paid'],
      ['beneficiary', 2450, 'waiting_account'],
    ]);
    await onboardSeller(beneficiary);
    const paid = await until(
      () => orderOf(seller, order.id),
      (answer) => answer.json.data?.transfers.every((entry) => entry.state === 'paid') === true,
    );
    expect(paid.json.data.transfers.map((entry) => entry.amount)).toEqual([7350, 2450]);
    const stripe = await stripeState();
    expect(
      stripe.transfers
        .filter((entry) => entry.transfer_group === order.id)
        .map((e) => e.amount)
        .sort(),
    ).toEqual([2450, 7350]);
  });
});
