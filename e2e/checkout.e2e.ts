/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { listingContract } from '../functions/offerings/testing/listing';
import { jsErrors, newPage, screenshot, useBrowser } from './browser';
import { signUpAndLogIn } from './outbox';
import { sellerHelpers } from './sellers';

/**
 * Buying in Chromium against `npm start` (issue 12): a buyer on a 375 px phone buys a copy of a
 * physical print from its page — copies and a new delivery address, the review with the split and
 * the booking's countdown, Stripe's (the twin's) hosted Checkout page with 4242 — and lands on the
 * order page, which follows the payment to Paid and keeps it after a reload. The copy is theirs
 * with its `sold` record; the seller marks the order shipped, the buyer confirms receipt, and the
 * seller's transfer of the order appears in /dev/stripe. Two buyers with saved cards, on a phone
 * and a desktop, book the last copy at the same moment: one gets it and pays with the saved card,
 * the other is told it is booked; the sale's aftermath (the webhook's: the buyer's wallet line)
 * shows after reloads. The seller is onboarded on the twin's hosted form; the offerings are listed
 * through the API and approved by support.
 */
const baseUrl = inject('baseUrl');
/** The Stripe twin of `npm start` (its fixed port, infra/local/stripe/README.md): its dev controls. */
const STRIPE_TWIN = 'http://127.0.0.1:12111';
const browser = useBrowser();
const { accessToken, becomeSeller, listApproved, makeItem } = sellerHelpers(baseUrl);

/** Saves card 4242 on Stripe's (the twin's) hosted page from the payment methods page. */
async function saveCard(page: Page, name: string) {
  await page.goto(`${baseUrl}/account/settings/paymentmethod`);
  await page.getByText('No saved cards').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Add a card' }).first().click();
  await page.waitForURL(/\/c\/pay\/cs_test_\w+$/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill(name);
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.waitForURL(`${baseUrl}/account/settings/paymentmethod`, { timeout: 15_000 });
  await page.getByRole('listitem', { name: 'Visa •••• 4242' }).waitFor();
}

/** From an item's page to the checkout's first step, with a new delivery address filled in. */
async function toCheckout(page: Page, itemId: string, title: string, fullname: string) {
  await page.goto(`${baseUrl}/market/product/${itemId}`);
  await page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Buy now' }).first().click();
  await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
  await page.getByText('You have no saved address').waitFor({ timeout: 15_000 });
  await page.getByLabel('Country').selectOption('ES');
  await page.getByLabel('Full name').fill(fullname);
  await page.getByLabel('Address line 1').fill('Calle del Faro 3');
  await page.getByLabel('Postal code').fill('39001');
  await page.getByLabel('City').fill('Santander');
  await page.getByLabel('State or province').fill('Cantabria');
}

describe('buying in Chromium', () => {
  it('a buyer on a phone pays with 4242 on the Checkout page; shipped, received, paid out', async () => {
    const title = `Lighthouse print ${Date.now().toString(36)}`;
    const seller = await newPage(browser(), 'desktop');
    const sellerUser = await signUpAndLogIn(seller.page, baseUrl, 'shop');
    const sellerToken = await accessToken(seller.page);
    await becomeSeller(seller.page, sellerToken);
    const itemId = await makeItem(sellerToken, sellerUser.id, title, 3);
    const offeringId = await listApproved(
      browser(),
      sellerToken,
      sellerUser.id,
      listingContract(itemId, { copies: 2, price: 4000 }),
    );

    // The buyer, on a phone: the item page's Buy now opens the checkout.
    const buyer = await newPage(browser(), 'phone');
    await signUpAndLogIn(buyer.page, baseUrl, 'shopper');
    await buyer.page.goto(`${baseUrl}/market/product/${itemId}`);
    await buyer.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
    await buyer.page.getByRole('button', { name: 'Buy now' }).first().click();
    await buyer.page.waitForURL(`${baseUrl}/market/product/${offeringId}/checkout**`);
    await buyer.page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();

    // Step 1: one copy, a new delivery address (no saved one yet).
    await buyer.page.getByText('You have no saved address').waitFor({ timeout: 15_000 });
    await buyer.page.getByLabel('Country').selectOption('ES');
    await buyer.page.getByLabel('Full name').fill('Lola Buyer');
    await buyer.page.getByLabel('Address line 1').fill('Calle del Faro 3');
    await buyer.page.getByLabel('Postal code').fill('39001');
    await buyer.page.getByLabel('City').fill('Santander');
    await buyer.page.getByLabel('State or province').fill('Cantabria');
    await screenshot(buyer.page, 'checkout-step1-375');
    await buyer.page.getByRole('button', { name: 'Book copies' }).click();

    // Step 2: the review, with the split and the booking's countdown; a reload keeps it.
    await buyer.page.getByRole('button', { name: 'Continue to payment' }).waitFor();
    expect(buyer.page.url()).toContain('order=oR');
    await buyer.page.reload();
    await buyer.page.getByRole('button', { name: 'Continue to payment' }).waitFor();
    await buyer.page.getByText('Platform fee (2%)').waitFor();
    await buyer.page.getByText(/Copies booked for you: \d\d:\d\d left/).waitFor();
    await screenshot(buyer.page, 'checkout-review-375');
    await buyer.page.getByRole('button', { name: 'Continue to payment' }).click();

    // Step 3: no saved card, so Stripe's hosted Checkout page.
    await buyer.page.getByRole('button', { name: 'Pay with a new card' }).click();
    await buyer.page.getByLabel('Card number').waitFor({ timeout: 15_000 });
    await buyer.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await buyer.page.getByLabel('CVC').fill('123');
    await buyer.page.getByLabel('Name on card').fill('Lola Buyer');
    await screenshot(buyer.page, 'checkout-stripe-375');
    await buyer.page.getByRole('button', { name: /^Pay / }).click();

    // Back on the order page: it follows the payment to Paid, and a reload keeps it.
    await buyer.page.waitForURL(/\/account\/orders\/oR\w+\?session_id=/, { timeout: 20_000 });
    const orderId = /\/account\/orders\/(oR\w+)/.exec(buyer.page.url())?.[1] as string;
    await buyer.page.getByLabel('Status: Paid').waitFor({ timeout: 20_000 });
    await buyer.page.reload();
    await buyer.page.getByLabel('Status: Paid').waitFor({ timeout: 20_000 });
    await buyer.page.getByText('Calle del Faro 3').first().waitFor();
    await screenshot(buyer.page, 'checkout-order-paid-375');

    // The copy is the buyer's, with its sale in the history.
    await buyer.page.goto(`${baseUrl}/account/wallet/mytokens`);
    await buyer.page.getByText(title).first().waitFor({ timeout: 15_000 });
    await buyer.page.goto(`${baseUrl}/account/wallet/mytokenshistory`);
    await buyer.page.getByText(title).first().waitFor({ timeout: 15_000 });
    await screenshot(buyer.page, 'checkout-tokens-history-375');

    // The seller ships from the order page.
    await seller.page.goto(`${baseUrl}/account/orders/${orderId}`);
    await seller.page.getByRole('button', { name: 'Mark shipped' }).click();
    const ship = seller.page.getByRole('dialog', { name: 'Mark the order shipped' });
    await ship.getByLabel('Carrier').fill('Correos');
    await ship.getByLabel('Tracking number').fill('PK123456789ES');
    await ship.getByRole('button', { name: 'Mark shipped' }).click();
    await seller.page.getByText('The order is marked shipped.').waitFor();
    await seller.page.getByText('PK123456789ES').first().waitFor();
    await screenshot(seller.page, 'checkout-order-shipped-1280');

    // The buyer confirms receipt: the order completes and the seller is paid out.
    await buyer.page.goto(`${baseUrl}/account/orders/${orderId}`);
    await buyer.page.getByText('PK123456789ES').first().waitFor({ timeout: 15_000 });
    await buyer.page.getByRole('button', { name: 'Confirm receipt' }).click();
    const confirm = buyer.page.getByRole('dialog', { name: 'Confirm you received the item?' });
    await confirm.getByRole('button', { name: 'Confirm receipt' }).click();
    await buyer.page.getByLabel('Status: Completed').waitFor({ timeout: 15_000 });
    await screenshot(buyer.page, 'checkout-order-completed-375');
    expect(jsErrors(buyer.page)).toEqual([]);

    const stripe = (await (await fetch(`${baseUrl}/dev/stripe.json`)).json()) as {
      transfers: { amount: number; transfer_group: string | null }[];
    };
    // 40.00 less the 2 % fee, to the seller, from this order's charge.
    expect(
      stripe.transfers.filter((entry) => entry.transfer_group === orderId).map((e) => e.amount),
    ).toEqual([3920]);
    await seller.page.goto(`${baseUrl}/dev/stripe`);
    await seller.page.getByText(orderId).first().waitFor();
    await screenshot(seller.page, 'checkout-dev-stripe-1280');
    expect(jsErrors(seller.page)).toEqual([]);
    await buyer.context.close();
    await seller.context.close();
  });

  it('two buyers book the last copy at once: one pays with the saved card, the other is told it is booked', async () => {
    const title = `Last print ${Date.now().toString(36)}`;
    const seller = await newPage(browser(), 'desktop');
    const sellerUser = await signUpAndLogIn(seller.page, baseUrl, 'last');
    const sellerToken = await accessToken(seller.page);
    await becomeSeller(seller.page, sellerToken);
    const itemId = await makeItem(sellerToken, sellerUser.id, title, 2);
    await listApproved(
      browser(),
      sellerToken,
      sellerUser.id,
      listingContract(itemId, { copies: 1, price: 2500 }),
    );

    const phone = await newPage(browser(), 'phone');
    const desk = await newPage(browser(), 'desktop');
    const phoneUser = await signUpAndLogIn(phone.page, baseUrl, 'racea');
    const deskUser = await signUpAndLogIn(desk.page, baseUrl, 'raceb');
    await saveCard(phone.page, 'Ana Racer');
    await saveCard(desk.page, 'Bea Racer');
    await toCheckout(phone.page, itemId, title, 'Ana Racer');
    await toCheckout(desk.page, itemId, title, 'Bea Racer');

    // Both book the one copy at the same moment: exactly one booking.
    await Promise.all(
      [phone.page, desk.page].map((page) =>
        page.getByRole('button', { name: 'Book copies' }).click(),
      ),
    );
    const outcome = async (page: Page) =>
      Promise.race([
        page
          .getByRole('button', { name: 'Continue to payment' })
          .waitFor({ timeout: 20_000 })
          .then(() => 'booked' as const),
        page
          .getByText('This product is booked, try again in five minutes.')
          .waitFor({ timeout: 20_000 })
          .then(() => 'refused' as const),
      ]);
    const outcomes = await Promise.all([outcome(phone.page), outcome(desk.page)]);
    expect([...outcomes].sort()).toEqual(['booked', 'refused']);
    const [winner, loser] = outcomes[0] === 'booked' ? [phone, desk] : [desk, phone];
    const winnerNick = outcomes[0] === 'booked' ? phoneUser.nick : deskUser.nick;
    await screenshot(loser.page, 'checkout-race-refused');

    // The winner pays with the saved card, from the review, and lands on the paid order.
    await winner.page.getByRole('button', { name: 'Continue to payment' }).click();
    await winner.page.getByRole('button', { name: 'Pay €25,00 with Visa •••• 4242' }).click();
    await winner.page.getByLabel('Status: Paid').waitFor({ timeout: 20_000 });
    expect(winner.page.url()).toMatch(/\/account\/orders\/oR\w+$/);
    const orderId = /\/account\/orders\/(oR\w+)/.exec(winner.page.url())?.[1] as string;
    await winner.page.reload();
    await winner.page.getByLabel('Status: Paid').waitFor({ timeout: 20_000 });
    await screenshot(winner.page, 'checkout-race-paid');

    // The sale's aftermath, which the saved-card call leaves to the payment's webhook: the
    // buyer's wallet lists the payment (reloaded until it is there).
    await winner.page.goto(`${baseUrl}/account/activity/wallet`);
    const activity = winner.page.getByLabel('Wallet activity', { exact: true });
    const shown = activity.or(winner.page.getByText('No wallet activity yet'));
    for (let tries = 0; ; tries += 1) {
      await shown.first().waitFor({ timeout: 15_000 });
      if ((await activity.getByText(`${title} × 1`).count()) > 0) break;
      if (tries > 20) throw new Error('the payment never reached the wallet activity');
      await winner.page.waitForTimeout(500);
      await winner.page.reload();
    }
    await screenshot(winner.page, 'checkout-race-wallet');

    // The other buyer finds nothing left on sale and the copy the winner's, on a reload too; the
    // seller sees the sale.
    await loser.page.goto(`${baseUrl}/market/product/${itemId}`);
    await loser.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
    await loser.page.reload();
    await loser.page
      .getByText('No copies of this item are on sale right now.')
      .waitFor({ timeout: 15_000 });
    await loser.page.getByRole('row', { name: `#1 of 2 @${winnerNick}` }).waitFor();
    expect(await loser.page.getByRole('button', { name: 'Buy now' }).count()).toBe(0);
    await screenshot(loser.page, 'checkout-race-sold-out');
    await seller.page.goto(`${baseUrl}/account/orders/${orderId}`);
    await seller.page.getByLabel('Status: Paid').waitFor({ timeout: 15_000 });
    await seller.page.getByRole('button', { name: 'Mark shipped' }).waitFor();

    for (const page of [winner.page, loser.page, seller.page]) expect(jsErrors(page)).toEqual([]);
    await Promise.all([phone.context.close(), desk.context.close(), seller.context.close()]);
  });

  it("a buyer on a phone double-clicks Pay: one charge; the bank's dispute then shows on both order pages", async () => {
    const title = `Disputed print ${Date.now().toString(36)}`;
    const seller = await newPage(browser(), 'desktop');
    const sellerUser = await signUpAndLogIn(seller.page, baseUrl, 'dispute');
    const sellerToken = await accessToken(seller.page);
    await becomeSeller(seller.page, sellerToken);
    const itemId = await makeItem(sellerToken, sellerUser.id, title, 1);
    await listApproved(
      browser(),
      sellerToken,
      sellerUser.id,
      listingContract(itemId, { copies: 1, price: 3000 }),
    );

    const buyer = await newPage(browser(), 'phone');
    await signUpAndLogIn(buyer.page, baseUrl, 'dblclick');
    await saveCard(buyer.page, 'Dora Click');
    await toCheckout(buyer.page, itemId, title, 'Dora Click');
    await buyer.page.getByRole('button', { name: 'Book copies' }).click();
    await buyer.page.getByRole('button', { name: 'Continue to payment' }).click();
    // An impatient double click on the saved card's button.
    await buyer.page.getByRole('button', { name: 'Pay €30,00 with Visa •••• 4242' }).dblclick();
    await buyer.page.getByLabel('Status: Paid').waitFor({ timeout: 20_000 });
    const orderId = /\/account\/orders\/(oR\w+)/.exec(buyer.page.url())?.[1] as string;
    await buyer.page.reload();
    await buyer.page.getByLabel('Status: Paid').waitFor({ timeout: 20_000 });
    await screenshot(buyer.page, 'checkout-double-click-paid-375');

    // One charge for the order at Stripe, whatever the clicks.
    const charges = async () =>
      (
        (await (await fetch(`${baseUrl}/dev/stripe.json`)).json()) as {
          payments: { id: string; status: string; transfer_group: string | null }[];
        }
      ).payments.filter(
        (payment) => payment.transfer_group === orderId && payment.status === 'succeeded',
      );
    const paid = await charges();
    expect(paid).toHaveLength(1);

    // The buyer's bank disputes the payment.
    const opened = await fetch(`${STRIPE_TWIN}/dev/disputes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payment_intent: paid[0]?.id, reason: 'product_not_received' }),
    });
    expect(opened.status).toBe(200);

    // The seller's order page shows it (reloaded until the event is handled), with the deadline.
    await seller.page.goto(`${baseUrl}/account/orders/${orderId}`);
    const dispute = seller.page.getByRole('region', { name: 'Dispute' });
    for (let tries = 0; ; tries += 1) {
      await seller.page.getByLabel('Status: Paid').waitFor({ timeout: 15_000 });
      if ((await dispute.count()) > 0) break;
      if (tries > 30) throw new Error('the dispute never reached the order page');
      await seller.page.waitForTimeout(500);
      await seller.page.reload();
    }
    await dispute.getByText('Open — waiting for the bank').waitFor();
    await dispute.getByText(/Support answers the bank by \d\d\/\d\d\/\d{4} \d\d:\d\d/).waitFor();
    await seller.page.getByText('Frozen').first().waitFor();
    // A disputed payment cannot be refunded: no cancel.
    expect(await seller.page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
    await screenshot(seller.page, 'checkout-dispute-seller-1280');

    // The buyer sees it too, on the phone.
    await buyer.page.reload();
    await buyer.page
      .getByRole('region', { name: 'Dispute' })
      .getByText('Open — waiting for the bank')
      .waitFor({ timeout: 15_000 });
    await screenshot(buyer.page, 'checkout-dispute-buyer-375');

    for (const page of [buyer.page, seller.page]) expect(jsErrors(page)).toEqual([]);
    await Promise.all([buyer.context.close(), seller.context.close()]);
  });
});
