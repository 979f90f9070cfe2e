/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
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
 * seller's transfer of the order appears in /dev/stripe. The seller is onboarded on the twin's
 * hosted form; the offering is listed through the API and approved by support.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();
const { accessToken, becomeSeller, listApproved, makeItem } = sellerHelpers(baseUrl);

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
});
