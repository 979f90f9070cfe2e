/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import { jsErrors, useBrowser, newPage, screenshot } from './browser';
import { typePin, waitForPin } from './outbox';

const baseUrl = inject('baseUrl');
const browser = useBrowser();

describe('accounts in Chromium: sign-up, pins, profile, follow, address, logout, login', () => {
  const stamp = Date.now().toString(36);
  const nick = `e2e${stamp}`;
  const email = `${nick}@example.com`;
  // Unique per run: +34 6 + the last 8 digits of the clock.
  const phone = `+346${String(Date.now()).slice(-8)}`;

  it('signs up with both codes, edits the profile, follows a seller, adds an address, logs out', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(`${baseUrl}/session/signup`);
    await page.getByLabel(/^Name\b/).fill('Erika');
    await page.getByLabel(/^Surname\b/).fill('Tester');
    await page.getByLabel(/^Username\b/).fill(nick);
    await page.getByLabel(/^E-mail\b/).fill(email.toUpperCase());
    await page
      .getByLabel('Mobile phone')
      .fill(`${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`);
    await page.getByText('Available').first().waitFor();
    await page.getByRole('checkbox').check();
    await screenshot(page, 'signup-1280');
    const before = new Date().toISOString();
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByText('Check your e-mail').first().waitFor();
    await typePin(page, await waitForPin(baseUrl, 'email', email, before));
    await page.getByText('Check your phone').first().waitFor();
    await screenshot(page, 'signup-phone-pin-1280');
    await typePin(page, await waitForPin(baseUrl, 'sms', phone, before));

    await page.waitForURL(/\/\?loggedForFirstTime=true$/, { timeout: 20_000 });
    // First login: the persistent profile modal opens; a summary, then Next saves and closes it.
    const firstLogin = page.getByRole('dialog');
    await firstLogin.getByRole('button', { name: 'Next' }).waitFor();
    await firstLogin.getByLabel(/^About/).fill('Collector of limited editions.');
    await screenshot(page, 'first-login-profile-1280');
    await firstLogin.getByRole('button', { name: 'Next' }).click();
    await firstLogin.waitFor({ state: 'detached' });
    await page.waitForURL(`${baseUrl}/`);
    const profile = (await (
      await fetch(`${baseUrl}/api/users/get-by-nickname/${nick}`)
    ).json()) as {
      data: { summary: string | null; name: string };
    };
    expect(profile.data).toMatchObject({
      summary: 'Collector of limited editions.',
      name: 'Erika',
    });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByText(`@${nick}`).first().waitFor();
    await screenshot(page, 'account-menu-1280', { fullPage: false });
    expect(jsErrors(page)).toEqual([]);

    // The directory lists only sellers: a fresh buyer account is not in it.
    const sellers = (await (await fetch(`${baseUrl}/api/users/sellers`)).json()) as {
      data: { items: { nick: string }[] };
    };
    expect(sellers.data.items.map((item) => item.nick)).not.toContain(nick);

    // Edit profile from the account menu: the title shows on the public profile.
    await page.getByRole('menuitem', { name: 'Edit profile' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit profile' });
    await editor.getByLabel(/^Title\b/).fill('Ceramist');
    await editor.getByRole('button', { name: 'Save and close' }).click();
    await editor.waitFor({ state: 'detached' });
    await page.goto(`${baseUrl}/${nick}`);
    await page.getByText('Ceramist').first().waitFor();

    // Follow a seller from the user card opened in the sellers directory (the least followed
    // one, last in the list, so the counter shows the exact +1).
    await page.goto(`${baseUrl}/sellers`);
    const opener = page.getByRole('button', { name: /^Open the card of / }).last();
    const sellerName = ((await opener.getAttribute('aria-label')) ?? '').replace(
      'Open the card of ',
      '',
    );
    await opener.click();
    const card = page.getByRole('dialog', { name: `Profile of ${sellerName}` });
    const followers = card.getByText(/^\d+ followers?$/);
    const followersBefore = Number.parseInt((await followers.textContent()) ?? '', 10);
    await card.getByRole('button', { name: 'Follow' }).click();
    await card.getByRole('button', { name: 'Following' }).waitFor();
    // (Singular for 1: a seller made by another journey may have had no follower.)
    await card.getByText(new RegExp(`^${followersBefore + 1} followers?$`)).waitFor();
    await screenshot(page, 'user-card-following-1280');
    // See Profile: the seeded seller's public profile, still followed.
    await card.getByRole('link', { name: 'See Profile' }).click();
    await page.getByRole('heading', { name: sellerName }).first().waitFor();
    await page.getByRole('button', { name: 'Following' }).first().waitFor();

    // Add an address in the general settings: the first one is the default.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL(`${baseUrl}/account/settings/general`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add address' }).first().click();
    const addressDialog = page.getByRole('dialog', { name: 'Add address' });
    await addressDialog.getByLabel(/^Country\b/).selectOption('ES');
    await addressDialog.getByLabel(/^Full name\b/).fill('Erika Tester');
    await addressDialog.getByLabel(/^Address line 1\b/).fill('Calle Mayor 1');
    await addressDialog.getByLabel(/^Postal code\b/).fill('28013');
    await addressDialog.getByLabel(/^City\b/).fill('Madrid');
    await addressDialog.getByLabel(/^State\/Province\b/).fill('Madrid');
    await addressDialog.getByRole('button', { name: 'Save' }).click();
    await addressDialog.waitFor({ state: 'detached' });
    const addresses = page.getByRole('list', { name: 'Addresses' });
    await addresses.getByText('Calle Mayor 1').waitFor();
    await screenshot(page, 'settings-addresses-1280');
    expect(jsErrors(page)).toEqual([]);

    // Log out, confirming the dialog: back to a guest.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /Log out/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Login' }).first().waitFor();
    await context.close();
  });

  it('refuses the same nick, e-mail and phone a second time, naming each field', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(`${baseUrl}/session/signup`);
    await page.getByLabel(/^Username\b/).fill(nick);
    await page.getByLabel(/^E-mail\b/).fill(email);
    await page.getByLabel(/^Mobile phone\b/).fill(phone);
    await expect.poll(() => page.getByText('Already taken').count()).toBe(3);
    await context.close();
  });

  it('logs in with the login modal on a phone: e-mail, e-mail code, phone code', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    await page.goto(`${baseUrl}/sellers`);
    await page.getByRole('button', { name: 'Login' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^E-mail\b/).fill(email);
    const before = new Date().toISOString();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('Check your e-mail').waitFor();
    await screenshot(page, 'login-email-pin-375');
    await typePin(page, await waitForPin(baseUrl, 'email', email, before));
    await dialog.getByText('Check your phone').waitFor();
    await typePin(page, await waitForPin(baseUrl, 'sms', phone, before));
    // Back on the page the visitor came from, logged in (on a phone the account button is the
    // bottom bar's "Account").
    await page
      .getByRole('button', { name: 'Account', exact: true })
      .first()
      .waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/sellers');
    await screenshot(page, 'logged-in-375');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
