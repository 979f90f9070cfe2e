/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { jsErrors, newPage, screenshot, useBrowser } from './browser';
import { signUpAndLogIn } from './outbox';

/**
 * In-app notifications in Chromium (spec 001 §2, §4, §7), against `npm start`: notifications are
 * created through the twin's `POST /dev/notifications` (what the listing, checkout and auction
 * features will emit); the bell rings in every tab of the user, the dialog lists them, hover,
 * swipe and mark-all read them in every tab, and a click opens the notification's target.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

interface DevNotification {
  userId: string;
  activity: string;
  payload?: Record<string, unknown>;
  count?: number;
}

async function notify(body: DevNotification): Promise<number> {
  const response = await fetch(`${baseUrl}/dev/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) {
    throw new Error(`/dev/notifications answered ${response.status}: ${await response.text()}`);
  }
  const { data } = (await response.json()) as { data: { created: number } };
  return data.created;
}

/**
 * The bell of the top bar (desktop) or of the bottom bar (phone): its name carries the count. The
 * open dialog hides the page from the accessibility tree; the bell is still looked at behind it.
 */
function bell(page: Page, where: 'top' | 'bottom' = 'top'): Locator {
  const bar =
    where === 'top'
      ? page.getByRole('banner', { includeHidden: true }).first()
      : page.getByRole('navigation', { name: 'Quick actions', includeHidden: true });
  return bar.getByRole('button', { name: /^Notifications/, includeHidden: true });
}

/**
 * The bell's name says `count` unread. The bell itself, not the placeholder the shell draws until
 * its module is here: that one is named "Notifications" too, and knows no count.
 */
async function expectUnread(page: Page, count: number, where: 'top' | 'bottom' = 'top') {
  const name = count === 0 ? 'Notifications' : `Notifications, ${count} unread`;
  const real = bell(page, where).and(page.locator('[data-ringing]'));
  await expect
    .poll(async () => ((await real.count()) === 1 ? real.getAttribute('aria-label') : null), {
      timeout: 15_000,
    })
    .toBe(name);
}

/** The dialog once its opening transition is over (a screenshot shows it as the user does). */
async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((node) => getComputedStyle(node.parentElement ?? node).opacity))
    .toBe('1');
}

/** A logged-in page on /legal/terms (no first-login modal: that opens on the login's landing). */
async function openTerms(page: Page): Promise<void> {
  await page.goto(`${baseUrl}/legal/terms`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

describe('notifications in Chromium', () => {
  it('two tabs: the bell rings in both; hover, mark all and a click, on a desktop', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    const user = await signUpAndLogIn(page, baseUrl, 'bell');
    await openTerms(page);
    const other = await context.newPage();
    Object.assign(other, { jsErrors: [] as string[] });
    other.on('pageerror', (error) =>
      (other as Page & { jsErrors: string[] }).jsErrors.push(error.message),
    );
    await openTerms(other);
    // The first tab in front again (a background tab runs no transitions).
    await page.bringToFront();
    await expectUnread(page, 0);
    await expectUnread(other, 0);

    // An empty list first.
    await bell(page).click();
    let dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.getByText('No notifications yet').waitFor();
    expect(await dialog.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
    await settled(dialog);
    await screenshot(page, 'notifications-empty-1280', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // One notification: both tabs ring, with the count in the badge and the title.
    expect(
      await notify({
        userId: user.id,
        activity: 'market_bidcreated',
        payload: {
          itemName: 'Walnut board',
          sourcenick: 'lumen',
          itemmarket: 'e2eitem1',
          amount: { amount: 12_000, currency: 'USD' },
        },
      }),
    ).toBe(1);
    for (const tab of [page, other]) {
      await expectUnread(tab, 1);
      expect(await bell(tab).getAttribute('data-ringing')).toBe('true');
      expect(await tab.title()).toMatch(/^\(1\) /);
    }
    await screenshot(page, 'notifications-ringing-1280', { fullPage: false });

    // Twenty-four more: three pages of ten.
    expect(
      await notify({
        userId: user.id,
        activity: 'market_outbid',
        payload: { itemName: 'Glass vase', itemmarket: 'e2eitem2' },
        count: 24,
      }),
    ).toBe(24);
    await expectUnread(page, 25);
    await expectUnread(other, 25);

    await bell(page).click();
    dialog = page.getByRole('dialog', { name: 'Notifications' });
    const rows = dialog.locator('[data-notification]');
    await rows.first().waitFor();
    // The dialog is 426 px wide; its list scrolls within 541 px.
    const box = await dialog.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(426);
    const scroll = dialog.locator('[data-notifications-scroll]');
    expect(
      await scroll.evaluate((node) => node.getBoundingClientRect().height),
    ).toBeLessThanOrEqual(541);
    await settled(dialog);
    await screenshot(page, 'notifications-dialog-1280', { fullPage: false });

    // Scrolling to the end loads the next pages (the end loads a page ahead, 120 px early).
    expect(await rows.count()).toBeLessThan(25);
    await expect
      .poll(
        async () => {
          await scroll.evaluate((node) => node.scrollTo(0, node.scrollHeight));
          return rows.count();
        },
        { timeout: 10_000 },
      )
      .toBe(25);

    // Hovering the newest one (the bid) marks it read, in both tabs.
    await scroll.evaluate((node) => node.scrollTo(0, 0));
    const newest = dialog.locator('[data-notification]').filter({ hasText: 'Walnut board' });
    await expect.poll(() => newest.getAttribute('data-read')).toBe('false');
    await page.mouse.move(5, 5);
    await newest.hover();
    await expect.poll(() => newest.getAttribute('data-read')).toBe('true');
    await expectUnread(page, 24);
    await expectUnread(other, 24);

    // Back to unread from its button.
    await dialog
      .getByRole('listitem')
      .filter({ hasText: 'Walnut board' })
      .getByRole('button', { name: 'Mark as unread' })
      .click();
    await expectUnread(page, 25);
    await expectUnread(other, 25);
    // A reload shows the server's count (and the reloaded tab's new socket still hears mark-all,
    // or fetches the counters when it opens after it).
    await other.reload();
    await expectUnread(other, 25);

    // Mark all: 0 everywhere, no count in the titles.
    const [markAll] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/sidebarmarkallread')),
      dialog.getByRole('button', { name: 'Mark all as read' }).click(),
    ]);
    expect(markAll.status(), await markAll.text()).toBe(200);
    await expectUnread(page, 0);
    await expectUnread(other, 0);
    expect(await page.title()).not.toMatch(/^\(/);
    expect(await other.title()).not.toMatch(/^\(/);
    await other.reload();
    await expectUnread(other, 0);
    expect(await dialog.locator('[data-read="false"]').count()).toBe(0);
    await settled(dialog);
    await screenshot(page, 'notifications-all-read-1280', { fullPage: false });
    expect(await dialog.locator('[data-read="false"]').count()).toBe(0);

    // A click opens the item and closes the dialog; focus went back to the bell.
    await newest.click();
    await page.waitForURL(`${baseUrl}/market/product/e2eitem1`);
    await dialog.waitFor({ state: 'detached' });

    // A seller-account notification opens the become-minter modal.
    await notify({ userId: user.id, activity: 'minter_pending', payload: { status: 'pending' } });
    await expectUnread(page, 1);
    await bell(page).click();
    dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.getByRole('button', { name: /Stripe is checking your seller details/ }).click();
    await page.getByRole('dialog', { name: /^(Become a seller|Your seller account)$/ }).waitFor();
    await expectUnread(page, 0);
    await page.keyboard.press('Escape');

    // Keyboard: Enter opens the dialog, Escape closes it and focus returns to the bell.
    await bell(page).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor({ state: 'detached' });
    expect(await bell(page).evaluate((node) => node === document.activeElement)).toBe(true);

    expect(jsErrors(page)).toEqual([]);
    expect((other as Page & { jsErrors: string[] }).jsErrors).toEqual([]);
    await context.close();
  });

  it('a 375 px phone: the bell in the bottom bar, swipe to read, a click to the order', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    const user = await signUpAndLogIn(page, baseUrl, 'bellphone');
    await openTerms(page);
    await expectUnread(page, 0, 'bottom');
    await notify({
      userId: user.id,
      activity: 'update_order',
      payload: { itemName: 'Walnut board', orderId: 'order1' },
    });
    await notify({
      userId: user.id,
      activity: 'asset_transfer',
      payload: { itemName: 'Glass vase', itemmarket: 'e2eitem2' },
    });
    await expectUnread(page, 2, 'bottom');
    await screenshot(page, 'notifications-bottom-bar-375', { fullPage: false });

    await bell(page, 'bottom').click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    const transfer = dialog.locator('[data-notification]').filter({ hasText: 'Glass vase' });
    await transfer.waitFor();
    // 95% of the screen's width.
    const box = await dialog.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(Math.round(375 * 0.95));
    await settled(dialog);
    await screenshot(page, 'notifications-dialog-375', { fullPage: false });

    // A swipe to the left marks it read (pointer events, as a finger sends them).
    const start = await transfer.boundingBox();
    if (!start) throw new Error('no row');
    const y = start.y + start.height / 2;
    const at = (x: number) => ({
      pointerType: 'touch',
      pointerId: 3,
      isPrimary: true,
      clientX: x,
      clientY: y,
      bubbles: true,
    });
    await transfer.dispatchEvent('pointerdown', at(start.x + 250));
    for (const x of [230, 200, 170, 150])
      await transfer.dispatchEvent('pointermove', at(start.x + x));
    await transfer.dispatchEvent('pointerup', at(start.x + 150));
    await expect.poll(() => transfer.getAttribute('data-read')).toBe('true');
    await expectUnread(page, 1, 'bottom');

    // The order update names its order: it opens the order's page (this one is made up, so the
    // page says it cannot be found).
    await dialog.getByRole('button', { name: /Your order of Walnut board was updated/ }).click();
    await page.waitForURL(`${baseUrl}/account/orders/order1`);
    await dialog.waitFor({ state: 'detached' });
    await expectUnread(page, 0, 'bottom');
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
    await page.getByText('This order could not be found').waitFor();
    await screenshot(page, 'notifications-order-375', { fullPage: false });
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('a guest downloads no notifications code and calls nothing of them, even once idle', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Login' }).waitFor();
    // The overlays load once the page is idle (3 s after the load event, one per idle period).
    await page.waitForTimeout(6_000);
    expect(requests.some((url) => /\/assets\/overlays-/.test(url))).toBe(true);
    expect(requests.filter((url) => /Notifications|\/api\/notifications/.test(url))).toEqual([]);
    expect(await page.getByRole('button', { name: /^Notifications/ }).count()).toBe(0);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
