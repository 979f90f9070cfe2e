/// <reference lib="dom" />
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { jsErrors, useBrowser, newPage, screenshot } from './browser';
import { signUpAndLogIn } from './outbox';

/**
 * Navigation through the bars only (issue 8 §2): after logging in, a user on a 375 px phone and
 * one on a desktop reach the create form, the wallet's tabs and the account pages by clicking, never
 * by typing an address; the phone user creates an item, and its copies table fits the screen.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 700, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** Nothing on the page is wider than the window (no sideways scrolling). */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

async function fillCreateForm(page: Page, email: string): Promise<void> {
  await page.getByLabel(/^Title\b/).fill('Walnut serving board');
  await page.getByLabel(/^Description\b/).fill('Oiled walnut, 40 × 20 cm, made to order.');
  await page.getByLabel(/^Copies\b/).fill('12');
  await page.getByLabel(/^Symbol\b/).fill('walnut-board');
  await page
    .getByLabel('Choose images')
    .setInputFiles([{ name: 'board.png', mimeType: 'image/png', buffer: await png('#8d5524') }]);
  const countries = page.getByRole('combobox', { name: /^Delivery countries\b/ });
  await countries.click();
  await countries.fill('Spain');
  await page.getByRole('option', { name: 'Spain (ES)' }).click();
  await page.getByLabel('No legal terms (None)').check();
  await page.getByLabel(/^Contact e-mail\b/).fill(email);
  await page.getByLabel(/^Organisation\b/).fill('Mina Maker Woodwork');
  await page.getByLabel(/^Legal form\b/).fill('Sole trader');
  await page.getByLabel(/^Issuer country\b/).selectOption('ES');
  await page.getByLabel(/^Issuer e-mail\b/).fill(email);
  await page.getByLabel(/^Governing law\b/).fill('Spanish law');
  await page.getByLabel(/^Jurisdiction\b/).fill('Courts of Madrid');
}

/** A first login lands on the profile modal (spec 001 §2): Next closes it. */
async function finishFirstLogin(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Complete your profile' });
  await dialog.waitFor({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 20_000 });
}

async function openAccountMenu(button: Locator, page: Page): Promise<Locator> {
  await button.click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

describe('navigation through the bars', () => {
  it('on a 375 px phone: create an item, the wallet tabs and the account pages; copies fit', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    await page.goto(baseUrl);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await screenshot(page, 'nav-guest-375');
    await expectNoHorizontalOverflow(page);

    const user = await signUpAndLogIn(page, baseUrl, 'navp');
    await finishFirstLogin(page);
    const top = page.getByRole('banner').first();
    const bottom = page.getByRole('navigation', { name: 'Quick actions' });
    await bottom.waitFor();
    await screenshot(page, 'nav-user-375');

    // Create is in the top bar on phones too.
    await top.getByRole('link', { name: 'Create an item to sell' }).click();
    await page.getByRole('heading', { name: 'Create item', level: 1 }).waitFor();
    await expectNoHorizontalOverflow(page);
    await fillCreateForm(page, user.email);
    await page.getByRole('button', { name: 'Create item' }).click();
    await page.waitForURL(/\/market\/product\/[0-9A-Z]{26}$/, { timeout: 30_000 });
    await page.getByText('#12 of 12', { exact: true }).waitFor();

    // The copies table fits the 343 px card: no sideways scrolling, History fully on screen.
    const table = page.getByRole('table', { name: 'Copies' });
    const fit = await table.evaluate((element) => {
      const container = element.parentElement as HTMLElement;
      return {
        tableWidth: element.getBoundingClientRect().width,
        containerWidth: container.clientWidth,
        scrollWidth: container.scrollWidth,
      };
    });
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.containerWidth);
    expect(fit.tableWidth).toBeLessThanOrEqual(fit.containerWidth);
    const history = page.getByRole('button', { name: 'History of copy #1', exact: true });
    const box = await history.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375 - 16);
    await expectNoHorizontalOverflow(page);
    await history.scrollIntoViewIfNeeded();
    await screenshot(page, 'nav-item-375');

    // The wallet from the bottom bar, then its second tab.
    await bottom.getByRole('link', { name: 'Wallet' }).click();
    await page.waitForURL(/\/account\/wallet\/mytokens$/);
    await page.getByText('Walnut serving board').first().waitFor();
    await page.getByRole('tab', { name: 'My creations' }).click();
    await page.waitForURL(/\/account\/wallet\/mymints$/);
    await page.getByText('Walnut serving board').first().waitFor();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, 'nav-wallet-375');

    // The account pages from the bottom bar's account menu.
    let menu = await openAccountMenu(bottom.getByRole('button', { name: 'Account' }), page);
    await menu.getByRole('menuitem', { name: 'My profile' }).click();
    await page.waitForURL(new RegExp(`/${user.nick}$`));
    await page.getByText('Walnut serving board').first().waitFor();
    menu = await openAccountMenu(bottom.getByRole('button', { name: 'Account' }), page);
    await menu.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    menu = await openAccountMenu(bottom.getByRole('button', { name: 'Account' }), page);
    await menu.getByRole('menuitem', { name: 'Edit profile' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit profile' });
    await editor.waitFor();
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });

    // The side bar's list is in the drawer.
    await top.getByRole('button', { name: 'Open navigation menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Main navigation' });
    await drawer.getByRole('link', { name: 'Sellers' }).click();
    await page.waitForURL(/\/sellers$/);
    await screenshot(page, 'nav-sellers-375');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('on a desktop: create form, wallet tabs, account pages and the side bar', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(baseUrl);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await screenshot(page, 'nav-guest-1280');

    const user = await signUpAndLogIn(page, baseUrl, 'navd');
    await finishFirstLogin(page);
    const top = page.getByRole('banner').first();
    expect(await page.getByRole('navigation', { name: 'Quick actions' }).count()).toBe(0);
    await screenshot(page, 'nav-user-1280');

    await top.getByRole('link', { name: 'Create an item to sell' }).click();
    await page.getByRole('heading', { name: 'Create item', level: 1 }).waitFor();

    await top.getByRole('link', { name: 'Wallet' }).click();
    await page.waitForURL(/\/account\/wallet\/mytokens$/);
    await page.getByRole('heading', { name: 'Wallet', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'My creations' }).click();
    await page.waitForURL(/\/account\/wallet\/mymints$/);
    await page.getByRole('tab', { name: 'My items' }).click();
    await page.waitForURL(/\/account\/wallet\/mytokens$/);
    await screenshot(page, 'nav-wallet-1280');

    let menu = await openAccountMenu(top.getByRole('button', { name: 'Account menu' }), page);
    await menu.getByRole('menuitem', { name: 'My profile' }).click();
    await page.waitForURL(new RegExp(`/${user.nick}$`));
    menu = await openAccountMenu(top.getByRole('button', { name: 'Account menu' }), page);
    await menu.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    // The permanent side bar.
    const side = page.getByRole('navigation', { name: 'Main navigation' });
    await side.getByRole('link', { name: 'Legal Terms' }).click();
    await page.waitForURL(/\/legal\/terms$/);
    await side.getByRole('link', { name: 'Sellers' }).click();
    await page.waitForURL(/\/sellers$/);
    expect(await top.getByRole('button', { name: 'Open navigation menu' }).count()).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
