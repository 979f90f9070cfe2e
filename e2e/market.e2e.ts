/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import { jsErrors, newPage, screenshot, useBrowser } from './browser';
import { logInAsSupport, signUpAndLogIn } from './outbox';
import { sellerHelpers } from './sellers';

/**
 * Listing and the market in Chromium against `npm start` (issue 11): an onboarded seller lists an
 * item from its page through the list form; support (the twin's support@example.com, an admin)
 * approves it in /admin/offerings; a buyer on a phone finds it in the market with filters,
 * favourites it and sees it in Favorites after a reload; the seller delists it and it leaves the
 * market. The seller's onboarding is Stripe's (the twin's) hosted form, reached from the begin
 * call; the item is made through the items API (the mint form has its own journey).
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();
const { accessToken, becomeSeller, makeItem } = sellerHelpers(baseUrl);

describe('listing and the market in Chromium', () => {
  it('lists an item, support approves it, a buyer on a phone finds and favourites it, the seller delists it', async () => {
    const title = `Harbour print ${Date.now().toString(36)}`;
    const seller = await newPage(browser(), 'desktop');
    const sellerUser = await signUpAndLogIn(seller.page, baseUrl, 'lister');
    const sellerToken = await accessToken(seller.page);
    await becomeSeller(seller.page, sellerToken);
    const itemId = await makeItem(sellerToken, sellerUser.id, title, 3);

    // The seller lists 2 of the 3 copies from the item's page.
    await seller.page.goto(`${baseUrl}/market/product/${itemId}`);
    await seller.page.getByRole('heading', { name: title }).first().waitFor({ timeout: 20_000 });
    await seller.page.getByRole('link', { name: 'List', exact: true }).click();
    await seller.page.waitForURL(`${baseUrl}/my-tokens/list-form/${itemId}`);
    await seller.page.getByRole('heading', { name: 'List item', level: 1 }).waitFor();
    await seller.page.getByLabel(/^Copies\b/).fill('2');
    await seller.page.getByLabel(/^Price per copy\b/).fill('25');
    await seller.page.getByRole('button', { name: 'Art' }).click();
    await seller.page.getByLabel('No terms (None)').check();
    await screenshot(seller.page, 'market-list-form-1280');
    await seller.page.getByRole('button', { name: 'List item' }).click();
    await seller.page
      .getByText('Your offering was submitted and is waiting for validation')
      .waitFor({ timeout: 30_000 });
    await screenshot(seller.page, 'market-list-submitted-1280');

    // Support approves it.
    const support = await newPage(browser(), 'desktop');
    await logInAsSupport(support.page, baseUrl);
    await support.page.goto(`${baseUrl}/admin/offerings`);
    await support.page.getByRole('heading', { name: 'Offerings to validate' }).waitFor();
    await support.page.getByText(title).first().waitFor();
    await screenshot(support.page, 'market-admin-queue-1280');
    await support.page.getByRole('button', { name: `Approve ${title}` }).click();
    await support.page.getByText(`“${title}” was approved and published.`).waitFor();
    expect(jsErrors(support.page)).toEqual([]);
    await support.context.close();

    // A buyer on a phone: the market with filters, the card, the heart, Favorites after a reload.
    const buyer = await newPage(browser(), 'phone');
    await signUpAndLogIn(buyer.page, baseUrl, 'buyer');
    await buyer.page.goto(
      `${baseUrl}/market/preview/marketplace?type=product_physical&category=art&offer=buy`,
    );
    const card = buyer.page.getByRole('article').filter({ hasText: title });
    await card.waitFor({ timeout: 20_000 });
    await expect(card.getByText('Buy Now').count()).resolves.toBeGreaterThan(0);
    await screenshot(buyer.page, 'market-filters-375');
    await card.getByRole('button', { name: 'Add to favourites' }).click();
    await card.getByRole('button', { name: 'Remove from favourites' }).waitFor();
    await buyer.page.goto(`${baseUrl}/market/preview/favorites`);
    await buyer.page.reload();
    await buyer.page.getByRole('article').filter({ hasText: title }).waitFor();
    await screenshot(buyer.page, 'market-favorites-375');

    // The seller delists it: the copies return, the market forgets it.
    await seller.page.goto(`${baseUrl}/market/product/${itemId}`);
    await seller.page.getByRole('button', { name: 'Delist' }).first().click();
    const dialog = seller.page.getByRole('dialog', { name: 'Delist this offering?' });
    await dialog.getByText('Its 2 copies return to your items.').waitFor();
    await dialog.getByRole('button', { name: 'Delist' }).click();
    await seller.page.getByText('Delisted').first().waitFor({ timeout: 15_000 });
    await screenshot(seller.page, 'market-delisted-1280');
    expect(jsErrors(seller.page)).toEqual([]);

    await buyer.page.goto(
      `${baseUrl}/market/preview/marketplace?type=product_physical&category=art&offer=buy`,
    );
    await buyer.page.getByRole('heading', { name: 'Market' }).first().waitFor();
    await buyer.page.waitForLoadState('networkidle');
    expect(await buyer.page.getByRole('article').filter({ hasText: title }).count()).toBe(0);
    expect(jsErrors(buyer.page)).toEqual([]);
    await buyer.context.close();
    await seller.context.close();
  });

  it('a guest on a phone finds the demo market of a fresh start, and a lot below its reserve with its bids competing', async () => {
    const guest = await newPage(browser(), 'phone');
    await guest.page.goto(`${baseUrl}/market`);
    const cards = guest.page.getByRole('article');
    await cards.filter({ hasText: 'Omega Seamaster, 1962, serviced' }).waitFor({ timeout: 20_000 });
    // Both kinds of offering, each with what its card needs.
    await expect(cards.filter({ hasText: 'Buy Now' }).count()).resolves.toBeGreaterThan(0);
    await expect(cards.filter({ hasText: 'Highest bid' }).count()).resolves.toBeGreaterThan(0);
    await screenshot(guest.page, 'market-demo-375');

    await cards.filter({ hasText: 'KT88 valve amplifier No. 12' }).first().click();
    await guest.page.waitForURL(/\/market\/product\/.+\?offering=/);
    const expectLot = async () => {
      const lot = guest.page.getByRole('article', { name: 'Offering by @nordlicht' });
      await lot.getByText('Reserve not met').waitFor({ timeout: 20_000 });
      const bids = lot.getByRole('list', { name: 'Bids (2)' });
      const rows = bids.getByRole('listitem');
      await expect(rows.nth(0).textContent()).resolves.toMatch(/@marcorossi.*€1\.320,00.*Leading/);
      await expect(rows.nth(1).textContent()).resolves.toMatch(/@atelierronda.*€1\.250,00.*Outbid/);
      await expect(lot.getByText('No bids yet').count()).resolves.toBe(0);
    };
    await expectLot();
    await screenshot(guest.page, 'market-demo-reserve-375');
    // A direct load of the same address shows the same lot.
    await guest.page.reload();
    await expectLot();
    expect(jsErrors(guest.page)).toEqual([]);
    await guest.context.close();
  });
});
