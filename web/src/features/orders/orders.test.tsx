import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '@shared/schemas/orders';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import { OFFERING_IDS } from '../../test/offeringFixtures';
import {
  disputeFixture,
  fail,
  ok,
  ORDER_CALLS,
  ORDER_IDS,
  orderFixture,
  paidOrderFixture,
} from '../../test/orderFixtures';
import { FakeSocket } from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { mockApi, renderRoute } from '../../test/utils';
import { paymentNavigation } from '../../lib/orders';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ID = ORDER_IDS.first;
const PAGE = `/account/orders/${ID}`;
const UPDATE = ORDER_CALLS.update(ID);

type Handlers = Parameters<typeof mockApi>[0];
type FetchMock = ReturnType<typeof mockApi>;

/** The order page's calls for the signed-in @ana (user-1); `order` answers retrievebyid. */
function setup(order: Order | (() => Response), extra: Handlers = {}) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  return mockApi({
    '/api/config': () => ok({ ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' }),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
    [ORDER_CALLS.retrieve]: typeof order === 'function' ? order : () => ok(order),
    ...extra,
  });
}

const callsTo = (fetchMock: FetchMock, path: string) =>
  fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
const bodiesTo = (fetchMock: FetchMock, path: string) =>
  callsTo(fetchMock, path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** The seller's side of the paid, delivered order (@lumen's view; the caller is user-1 here). */
const sold = (overrides: Partial<Order> = {}) =>
  paidOrderFixture({ role: 'seller', actions: ['ship', 'cancel'], ...overrides });

/** A description list's terms and their values, as read. */
function pairsOf(element: HTMLElement) {
  return [...element.querySelectorAll('dt')].map((term) => [
    term.textContent,
    term.nextElementSibling?.textContent,
  ]);
}

async function actions() {
  return screen.findByRole('region', { name: 'Actions' });
}

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

describe('the order page', () => {
  it('shows the order: status, item, amounts, split, copies, delivery, payments, transfers, timeline', async () => {
    setup(paidOrderFixture());
    renderRoute(PAGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Order' })).toBeTruthy();
    expect(screen.getByLabelText('Status: Paid')).toBeTruthy();
    const item = screen.getByRole('region', { name: 'Item' });
    expect(within(item).getByRole('link', { name: 'Stoneware mug' }).getAttribute('href')).toBe(
      '/market/product/01JDQCTZPTP0NX1EBB5G2451W0',
    );
    expect(within(item).getByText('Bought from @lumen')).toBeTruthy();

    const amounts = screen.getByRole('region', { name: 'Amounts' });
    expect(within(amounts).getByText('Total').nextElementSibling?.textContent).toBe('$12,50');
    expect(within(amounts).getByText('Paid').nextElementSibling?.textContent).toBe('$12,50');
    const split = within(amounts).getByLabelText('Where the payment goes');
    expect(pairsOf(split)).toEqual([
      ['Payment', '$12,50'],
      ['Platform fee (2%)', '$0,25'],
      ["Creator's royalty (10%)", '$1,00'],
      ["Beneficiary's share (20%)", '$0,25'],
      ['Seller receives', '$11,00'],
    ]);

    const copies = screen.getByRole('list', { name: 'Serial numbers' });
    expect(within(copies).getByText('mug-0004')).toBeTruthy();
    const delivery = screen.getByRole('region', { name: 'Delivery' });
    expect(within(delivery).getByText('Ana García')).toBeTruthy();
    expect(within(delivery).getByText('Not shipped yet.')).toBeTruthy();

    const payments = screen.getByRole('region', { name: 'Payments' });
    expect(within(payments).getByText('Payment · $12,50')).toBeTruthy();
    const receipt = within(payments).getByRole('link', {
      name: 'Receipt of the payment ($12,50)',
    });
    expect(receipt.getAttribute('href')).toBe('https://pay.stripe.test/receipts/1');
    expect(receipt.getAttribute('target')).toBe('_blank');

    const transfers = screen.getByRole('region', { name: 'Transfers' });
    expect(within(transfers).getByText('$11,00')).toBeTruthy();
    expect(within(transfers).getByText('Held')).toBeTruthy();
    expect(within(transfers).getByRole('link', { name: '@lumen' })).toBeTruthy();

    const timeline = screen.getByRole('list', { name: 'Timeline' });
    expect(within(timeline).getByText('Copies booked')).toBeTruthy();
    expect(within(timeline).getByText('01/03/2026 10:01', { exact: false })).toBeTruthy();
    // The buyer of a paid order that is not shipped has nothing to do yet.
    expect(screen.queryByRole('region', { name: 'Actions' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Dispute' })).toBeNull();
    expect(document.title).toBe('Order · MintMarket');
  });

  it("offers the seller's actions to the seller and Confirm receipt to the buyer", async () => {
    setup(sold());
    const seller = renderRoute(PAGE);
    let region = await actions();
    expect(
      within(region)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Mark shipped', 'Cancel order']);
    expect(screen.getByText('Sold to @ana')).toBeTruthy();
    seller.unmount();

    setup(
      sold({ payment_mode: 'deposit', status: 'checkout_complete', actions: ['ready', 'cancel'] }),
    );
    const deposit = renderRoute(PAGE);
    region = await actions();
    expect(within(region).getByRole('button', { name: 'Ready: charge the balance' })).toBeTruthy();
    deposit.unmount();

    setup(
      paidOrderFixture({
        fulfilment: 'shipped',
        shipment: { carrier: 'Correos', tracking: 'PK123', shipped_at: '2026-03-02T09:00:00.000Z' },
        actions: ['confirm_receipt'],
      }),
    );
    renderRoute(PAGE);
    region = await actions();
    expect(
      within(region)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Confirm receipt']);
    const delivery = screen.getByRole('region', { name: 'Delivery' });
    expect(within(delivery).getByText('Correos')).toBeTruthy();
    expect(within(delivery).getByText('PK123')).toBeTruthy();
  });

  it('asks for both the carrier and the tracking number before marking shipped', async () => {
    const shipped = sold({
      fulfilment: 'shipped',
      shipment: { carrier: 'Correos', tracking: 'PK123', shipped_at: '2026-03-02T09:00:00.000Z' },
      actions: [],
    });
    const fetchMock = setup(sold(), { [UPDATE]: () => ok(shipped) });
    renderRoute(PAGE);
    await userEvent.click(within(await actions()).getByRole('button', { name: 'Mark shipped' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the order shipped' });
    const submit = within(dialog).getByRole('button', { name: 'Mark shipped' });
    await userEvent.click(submit);
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(2);
    expect(callsTo(fetchMock, UPDATE)).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText(/Carrier/), 'Correos');
    await userEvent.click(submit);
    expect(within(dialog).getAllByText('This field is required.')).toHaveLength(1);
    expect(callsTo(fetchMock, UPDATE)).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText(/Tracking number/), ' PK123 ');
    await userEvent.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fetchMock, UPDATE)).toEqual([
      { action: 'ship', carrier: 'Correos', tracking: 'PK123' },
    ]);
    expect(await screen.findByText('The order is marked shipped.')).toBeTruthy();
    const delivery = screen.getByRole('region', { name: 'Delivery' });
    expect(within(delivery).getByText('PK123')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Actions' })).toBeNull();
  });

  it('cancels with an optional reason after explaining the full refund', async () => {
    const fetchMock = setup(sold(), {
      [UPDATE]: () =>
        ok(sold({ status: 'cancelled', refunded: 1250, cancel_reason: 'Broken', actions: [] })),
    });
    renderRoute(PAGE);
    await userEvent.click(within(await actions()).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this order?' });
    expect(
      within(dialog).getByText(
        'The buyer gets a full refund of $12,50 and the copies come back to you.',
      ),
    ).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), 'Broken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fetchMock, UPDATE)).toEqual([{ action: 'cancel', reason: 'Broken' }]);
    expect(await screen.findByText('The order is cancelled and the buyer refunded.')).toBeTruthy();
    expect(screen.getByText('Reason given: Broken')).toBeTruthy();
    expect(screen.getByLabelText('Status: Cancelled')).toBeTruthy();
  });

  it('confirms receipt for the buyer, and shows a refusal in the dialog', async () => {
    let calls = 0;
    const shipped = paidOrderFixture({
      fulfilment: 'shipped',
      shipment: { carrier: 'Correos', tracking: 'PK123', shipped_at: '2026-03-02T09:00:00.000Z' },
      actions: ['confirm_receipt'],
    });
    const fetchMock = setup(shipped, {
      [UPDATE]: () => {
        calls += 1;
        return calls === 1
          ? fail('orders.errors.not_allowed', 409)
          : ok({ ...shipped, status: 'fulfilled', fulfilment: 'received', actions: [] });
      },
    });
    renderRoute(PAGE);
    await userEvent.click(within(await actions()).getByRole('button', { name: 'Confirm receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm you received the item?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm receipt' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This order cannot do that now.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm receipt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodiesTo(fetchMock, UPDATE)).toEqual([
      { action: 'confirm_receipt' },
      { action: 'confirm_receipt' },
    ]);
    expect(await screen.findByText('Thank you: receipt confirmed.')).toBeTruthy();
    expect(screen.getByLabelText('Status: Completed')).toBeTruthy();
  });

  it("asks the buyer to pay a deposit order's balance the saved card did not pay", async () => {
    const due = paidOrderFixture({
      status: 'checkout_complete',
      payment_mode: 'deposit',
      balance_due: 4000,
      payment_error: 'checkout.errors.no_card',
      actions: ['pay'],
    });
    const assign = vi.spyOn(paymentNavigation, 'assign').mockImplementation(() => undefined);
    const fetchMock = setup(due, {
      [ORDER_CALLS.payIntent]: () =>
        ok({
          order_id: ID,
          payment_intent_id: 'pi_1',
          status: 'failed',
          next_action_url: null,
          error: 'checkout.errors.card_declined',
        }),
      [ORDER_CALLS.checkout]: () =>
        ok({ session_id: 'cs_test_2', url: 'http://stripe.test/pay', expires_at: 'x' }),
    });
    renderRoute(PAGE);
    const alert = await screen.findByRole('alert', { name: '' });
    expect(alert.textContent).toContain('is due');
    expect(alert.textContent).toContain('You have no saved card. Pay with a new card instead.');
    await userEvent.click(within(alert).getByRole('button', { name: /with a saved card$/ }));
    expect(
      await within(alert).findByText('Your card was declined. Try another card.'),
    ).toBeTruthy();
    await userEvent.click(within(alert).getByRole('button', { name: 'Pay with a new card' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://stripe.test/pay'));
    expect(bodiesTo(fetchMock, ORDER_CALLS.checkout)).toEqual([{ order_id: ID }]);
    assign.mockRestore();
  });

  it('says the payment is being confirmed after Stripe, until the order moves on', async () => {
    let order = orderFixture({ status: 'payment_intent_created', actions: [] });
    const fetchMock = setup(() => ok(order), {
      [ORDER_CALLS.retrieveSession]: () =>
        ok({ session_id: 'cs_test_1', order_id: ID, status: 'complete', payment_status: 'paid' }),
    });
    renderRoute(`${PAGE}?session_id=cs_test_1`);
    expect(await screen.findByText('Payment received, confirming…')).toBeTruthy();
    expect(bodiesTo(fetchMock, ORDER_CALLS.retrieveSession)).toEqual([{ session_id: 'cs_test_1' }]);
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    order = paidOrderFixture();
    act(() =>
      FakeSocket.broadcast({ type: 'order.updated', id: 'm-1', orderId: ID, status: 'paid' }),
    );
    await waitFor(() => expect(screen.queryByText('Payment received, confirming…')).toBeNull());
    expect(screen.getByLabelText('Status: Paid')).toBeTruthy();
  });

  it('polls every 5 s while the payment is under way', async () => {
    let order = orderFixture({ status: 'payment_intent_success', actions: [] });
    const fetchMock = setup(() => ok(order));
    renderRoute(PAGE);
    expect(await screen.findByLabelText('Status: Payment received')).toBeTruthy();
    order = paidOrderFixture();
    await waitFor(() => expect(screen.getByLabelText('Status: Paid')).toBeTruthy(), {
      timeout: 7_000,
    });
    expect(callsTo(fetchMock, ORDER_CALLS.retrieve).length).toBeGreaterThanOrEqual(2);
  }, 10_000);

  it("shows the buyer's booking with its countdown and a Pay link back to the checkout", async () => {
    setup(orderFixture());
    renderRoute(PAGE);
    const timer = await screen.findByRole('timer', { name: 'Booking time left' });
    expect(timer.textContent).toMatch(/Copies booked for you: 0[34]:\d\d left/);
    expect(within(timer).getByRole('link', { name: 'Pay' }).getAttribute('href')).toBe(
      `/market/product/${OFFERING_IDS.fixed}/checkout?order=${ID}&step=3`,
    );
    expect(screen.getByText('The copies are assigned when the order is paid.')).toBeTruthy();
  });

  it('says when the order does not exist', async () => {
    setup(() => fail('orders.errors.not_found', 404));
    renderRoute(PAGE);
    expect(
      await screen.findByRole('heading', { name: 'This order could not be found' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to activity' })).toBeTruthy();
  });

  it('fits a phone: the actions stay reachable', async () => {
    setViewportWidth(PHONE_WIDTH);
    setup(sold());
    renderRoute(PAGE);
    const region = await actions();
    expect(within(region).getByRole('button', { name: 'Mark shipped' })).toBeTruthy();
    await userEvent.click(within(region).getByRole('button', { name: 'Mark shipped' }));
    expect(await screen.findByRole('dialog', { name: 'Mark the order shipped' })).toBeTruthy();
  });
});

describe("the order page: a dispute of the order's payment", () => {
  /** The paid mug the buyer's bank disputes as fraud: the seller's share frozen meanwhile. */
  const disputed = (overrides: Partial<Order> = {}) => {
    const base = paidOrderFixture();
    return paidOrderFixture({
      dispute: disputeFixture(),
      transfers: base.transfers.map((transfer) => ({ ...transfer, state: 'frozen' as const })),
      timeline: [
        ...base.timeline,
        { status: 'paid', label: 'disputed', at: '2026-03-02T09:00:00.000Z' },
      ],
      ...overrides,
    });
  };
  const factsOf = (region: HTMLElement) => pairsOf(region.querySelector('dl') as HTMLElement);

  it('tells the seller their payout is frozen and by when support answers the bank', async () => {
    setup(disputed({ role: 'seller', actions: ['ship'] }));
    renderRoute(PAGE);
    const region = await screen.findByRole('region', { name: 'Dispute' });
    expect(factsOf(region)).toEqual([
      ['Status', 'Open — waiting for the bank'],
      ["Bank's reason", 'Reported as fraud'],
      ['Amount disputed', '$12,50'],
      ['Opened', expect.stringMatching(/^0\d\/03\/2026 \d\d:\d\d$/)],
    ]);
    expect(within(region).getByText('Your payout is frozen until the bank decides.')).toBeTruthy();
    expect(
      within(region).getByText(/^Support answers the bank by 10\/03\/2026 \d\d:\d\d$/),
    ).toBeTruthy();

    const transfers = screen.getByRole('region', { name: 'Transfers' });
    expect(within(transfers).getByText('Frozen: the payment is disputed')).toBeTruthy();
    const timeline = screen.getByRole('list', { name: 'Timeline' });
    expect(within(timeline).getByText("Payment disputed by the buyer's bank")).toBeTruthy();
  });

  it('tells the buyer their bank is reviewing the payment, without the deadline', async () => {
    setup(disputed());
    renderRoute(PAGE);
    const region = await screen.findByRole('region', { name: 'Dispute' });
    expect(within(region).getByText('Your bank is reviewing this payment.')).toBeTruthy();
    expect(within(region).queryByText(/Support answers the bank/)).toBeNull();
    expect(within(region).queryByText(/payout/)).toBeNull();
  });

  it('tells the buyer of a lost dispute that the order is cancelled, in words', async () => {
    setup(
      disputed({
        status: 'cancelled',
        cancel_reason: 'dispute_lost',
        refunded: 1250,
        dispute: disputeFixture({
          status: 'lost',
          stripe_status: 'lost',
          reason: 'product_not_received',
          evidence_due_by: null,
          closed_at: '2026-03-20T15:30:00.000Z',
        }),
        transfers: [],
        timeline: [
          ...paidOrderFixture().timeline,
          { status: 'paid', label: 'disputed', at: '2026-03-02T09:00:00.000Z' },
          { status: 'cancelled', label: 'dispute_lost', at: '2026-03-20T15:30:00.000Z' },
        ],
      }),
    );
    renderRoute(PAGE);
    const region = await screen.findByRole('region', { name: 'Dispute' });
    expect(screen.getByLabelText('Status: Cancelled')).toBeTruthy();
    expect(factsOf(region)).toEqual([
      ['Status', 'Lost — the payment went back to the buyer'],
      ["Bank's reason", 'Item not received'],
      ['Amount disputed', '$12,50'],
      ['Opened', expect.stringMatching(/03\/2026/)],
      ['Decided', expect.stringMatching(/^20\/03\/2026 \d\d:\d\d$/)],
    ]);
    expect(
      within(region).getByText(
        'The bank returned the payment to the buyer; the order is cancelled.',
      ),
    ).toBeTruthy();
    // The cancel reason is the app's code: shown in words, never as the code.
    expect(
      screen.getByText("Cancelled because the buyer's bank took the payment back (dispute lost)."),
    ).toBeTruthy();
    expect(screen.queryByText(/dispute_lost/)).toBeNull();
    const timeline = screen.getByRole('list', { name: 'Timeline' });
    expect(
      within(timeline).getByText('Dispute lost: the payment went back to the buyer'),
    ).toBeTruthy();
  });

  it('names a reason it does not know', async () => {
    setup(disputed({ dispute: disputeFixture({ reason: 'bank_cannot_process' }) }));
    renderRoute(PAGE);
    const region = await screen.findByRole('region', { name: 'Dispute' });
    expect(within(region).getByText('Another reason (bank_cannot_process)')).toBeTruthy();
  });
});
