/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import { jsErrors, newPage, screenshot, useBrowser } from './browser';
import { signUpAndLogIn } from './outbox';

/**
 * Card payments part 1 in Chromium, against `npm start` and its Stripe twin, as a user does it:
 * becoming a seller through the become-minter modal and Stripe's onboarding page in the window it
 * opens; saving a card on Stripe's hosted page (4242), seeing it after a reload, removing it; the
 * 3155 card that asks for authentication.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

describe('payments in Chromium', () => {
  it('becomes a seller: modal, country, Stripe onboarding in the popup, back as a seller in /sellers', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    const user = await signUpAndLogIn(page, baseUrl, 'seller');
    await page.goto(`${baseUrl}/account/settings/general`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Become a seller' }).click();
    const modal = page.getByRole('dialog', { name: 'Become a seller' });
    await modal.getByRole('button', { name: 'Become a seller' }).click();
    // Step 1: the country. One Stripe Express does not serve gives the invalid-country step.
    await modal.getByLabel('Country').selectOption('BR');
    await modal.getByRole('button', { name: 'Continue' }).click();
    await modal.getByText(/is not supported yet/).waitFor();
    await modal.getByRole('button', { name: 'Back' }).click();
    await modal.getByLabel('Country').selectOption('GB');
    await screenshot(page, 'payments-minter-country-1280', { fullPage: false });
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      modal.getByRole('button', { name: 'Continue' }).click(),
    ]);
    // The window opened in the click is pointed at Stripe's (the twin's) onboarding form.
    await popup.waitForURL(/\/setup\/s\/acct_\w+\//, { timeout: 15_000 });
    await modal.getByText('Continue in the Stripe window').waitFor();
    await popup.getByRole('button', { name: 'Submit: verified' }).click();
    await popup.waitForURL(`${baseUrl}/stripe/onboarding/minter`);
    await popup.getByText('You’re a seller now').waitFor({ timeout: 15_000 });
    await screenshot(popup, 'payments-minter-return-1280');
    await popup.close();

    // The modal follows by itself (stripe.updated on the live channel, or the popup's message):
    // it becomes the seller's account.
    const account = page.getByRole('dialog', { name: 'Your seller account' });
    await account.getByText('Active').waitFor({ timeout: 15_000 });
    await account.getByRole('button', { name: 'Open Stripe dashboard' }).waitFor();
    await screenshot(page, 'payments-minter-active-1280', { fullPage: false });
    await account.getByRole('button', { name: 'Close' }).first().click();
    await account.waitFor({ state: 'detached' });

    // A reload keeps it (the status is the server's), and the sellers directory lists the user.
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Seller account' }).waitFor();
    await page.keyboard.press('Escape');
    await page.goto(`${baseUrl}/sellers`);
    await page
      .getByRole('button', { name: /^Open the card of / })
      .first()
      .waitFor();
    const sellers = (await (await fetch(`${baseUrl}/api/users/sellers?limit=50`)).json()) as {
      data: { items: { nick: string }[] };
    };
    expect(sellers.data.items.map((item) => item.nick)).toContain(user.nick);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('saves card 4242 on Stripe’s page, sees it after a reload, removes it (a phone)', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    await signUpAndLogIn(page, baseUrl, 'cards');
    await page.goto(`${baseUrl}/account/settings/paymentmethod`);
    await page.getByText('No saved cards').waitFor();
    await page.getByRole('button', { name: 'Add a card' }).first().click();
    // Stripe's hosted Checkout in setup mode (the twin's), in the same tab.
    await page.waitForURL(/\/c\/pay\/cs_test_\w+$/);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Mina Maker');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/stripe\/payment\/success\?session_id=cs_test_\w+$/);
    await page.getByText('Card saved').first().waitFor();
    await page.waitForURL(`${baseUrl}/account/settings/paymentmethod`, { timeout: 15_000 });
    const card = page.getByRole('listitem', { name: 'Visa •••• 4242' });
    await card.getByText('Default').waitFor();
    await card.getByText('Expires 12/34').waitFor();
    await screenshot(page, 'payments-cards-375');

    await page.reload();
    await page.getByRole('listitem', { name: 'Visa •••• 4242' }).waitFor();
    await page.getByRole('button', { name: 'Remove Visa •••• 4242' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this card?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('No saved cards').waitFor();
    await page.reload();
    await page.getByText('No saved cards').waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('asks for authentication for card 3155, and saves it once approved', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await signUpAndLogIn(page, baseUrl, 'threeds');
    await page.goto(`${baseUrl}/account/settings/paymentmethod`);
    await page.getByRole('button', { name: 'Add a card' }).first().click();
    await page.waitForURL(/\/c\/pay\/cs_test_\w+$/);
    await page.getByLabel('Card number').fill('4000 0025 0000 3155');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    // The bank's 3D Secure step (the twin's test page).
    await page.waitForURL(/\/authenticate\/seti_\w+$/);
    await screenshot(page, 'payments-3ds-1280');
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(`${baseUrl}/account/settings/paymentmethod`, { timeout: 15_000 });
    await page.getByRole('listitem', { name: 'Visa •••• 3155' }).getByText('Default').waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
