/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { jsErrors, useBrowser, newPage, screenshot, watch401 } from './browser';
import { signUpAndLogIn } from './outbox';

/**
 * Logged-in pages opened directly and reloaded: the first protected calls must carry the access
 * token (no 401 in the network log) and no page may show its error state. Before the fix every
 * account page answered "could not be loaded" after a reload until the user pressed Try again.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

/** Every page a logged-in user can open directly, and what the address bar must then say. */
const PAGES: { path: string; lands: RegExp; dialog?: string; bare?: true }[] = [
  { path: '/account/wallet', lands: /\/account\/wallet\/mytokens$/ },
  { path: '/account/wallet/mytokens', lands: /\/account\/wallet\/mytokens$/ },
  { path: '/account/wallet/mymints', lands: /\/account\/wallet\/mymints$/ },
  { path: '/account/settings/general', lands: /\/account\/settings\/general$/ },
  // Saved cards (fiat on in this deployment).
  { path: '/account/settings/paymentmethod', lands: /\/account\/settings\/paymentmethod$/ },
  // Stripe's return pages and the onboarding window's first page (001 §2).
  { path: '/stripe/onboarding/minter', lands: /\/stripe\/onboarding\/minter$/ },
  // The onboarding window's first page has no app bars (it is pointed at Stripe at once).
  { path: '/redirecting', lands: /\/redirecting$/, bare: true },
  // The edit-profile dialog over the user's own profile.
  { path: '/account/profile', lands: /\/account\/profile$|\/[a-z0-9]+$/, dialog: 'Edit profile' },
  { path: '/my-tokens/mint-form', lands: /\/my-tokens\/mint-form$/ },
  // The market's tabs; My Offerings sends a user who is not a seller to the market (000 §6).
  { path: '/market/preview/marketplace', lands: /\/market\/preview\/marketplace$/ },
  { path: '/market/preview/favorites', lands: /\/market\/preview\/favorites$/ },
  { path: '/market/preview/mybids', lands: /\/market\/preview\/mybids$/ },
  { path: '/market/preview/collections', lands: /\/market\/preview\/collections$/ },
  { path: '/market/preview/myofferings', lands: /\/market\/preview\/marketplace$/ },
  // Support's queue is a 404 for anyone but an admin.
  { path: '/admin/offerings', lands: /\/admin\/offerings$/ },
  // Orders (issue 12): the activity tabs (an unknown slug is the market tab), copies bought and
  // sold, an order that is not the caller's, a checkout of an offering that does not exist.
  { path: '/account/activity', lands: /\/account\/activity\/market$/ },
  { path: '/account/activity/wallet', lands: /\/account\/activity\/wallet$/ },
  { path: '/account/activity/nope', lands: /\/account\/activity\/market$/ },
  { path: '/account/wallet/mytokenshistory', lands: /\/account\/wallet\/mytokenshistory$/ },
  {
    path: '/account/orders/oR01J00000000000000000000AB',
    lands: /\/account\/orders\/oR01J00000000000000000000AB$/,
  },
  {
    path: '/market/product/oF01J00000000000000000000AB/checkout',
    lands: /\/market\/product\/oF01J00000000000000000000AB\/checkout$/,
  },
  // An e-mail's unsubscribe link (public; a malformed token shows its "not valid" card, no call).
  { path: '/unsubscribe?token=x', lands: /\/unsubscribe\?token=x$/ },
  // A seeded seller's public profile: its HTML is the profile's frame (a guest's top bar), which
  // the app replaces with the logged-in page; its calls carry the token (none sent early).
  { path: '/tidewater', lands: /\/tidewater$/ },
];

/** The page settled (no request in flight) and shows its content, not an error state. */
async function expectHealthy(page: Page, label: string, bare = false): Promise<void> {
  try {
    await checkHealthy(page, label, bare);
  } catch (error) {
    await screenshot(page, `reload-failed-${label.replace(/[^a-z0-9]+/gi, '-')}`);
    throw error;
  }
}

async function checkHealthy(page: Page, label: string, bare: boolean): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor({ timeout: 15_000 });
  // Error states offer "Try again"; load failures and expiry raise an alert or a toast.
  expect(await page.getByRole('button', { name: 'Try again' }).count(), label).toBe(0);
  expect(
    await page.getByText(/could not be loaded|couldn't load|Unexpected Error/i).count(),
    label,
  ).toBe(0);
  expect(await page.getByText('Your session has expired').count(), label).toBe(0);
  if (bare) return;
  // Still logged in: the top bar's account button, or the phone bottom bar's "Account" (behind
  // the edit-profile dialog of /account/profile the top bar is inert, so it is found by its label).
  const account = page
    .locator('[aria-label="Account menu"]')
    .or(page.getByRole('button', { name: 'Account', exact: true }));
  expect(await account.count(), label).toBeGreaterThan(0);
}

describe('reloading logged-in pages', () => {
  it('opens every account page and the mint form directly, then reloads each, with no 401 and no error state', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await signUpAndLogIn(page, baseUrl, 'reload');
    const refused = watch401(page);

    for (const { path, lands, dialog, bare } of PAGES) {
      for (const how of ['direct load', 'reload'] as const) {
        if (how === 'direct load') await page.goto(`${baseUrl}${path}`);
        else await page.reload();
        await expectHealthy(page, `${how} of ${path}`, bare === true);
        expect(page.url(), path).toMatch(lands);
        // (/account/profile moves to /:nick with the dialog open; reloading /:nick shows the profile.)
        if (dialog !== undefined && how === 'direct load') {
          await page.getByRole('dialog', { name: dialog }).waitFor({ timeout: 15_000 });
        }
      }
    }
    await screenshot(page, 'reload-last-page-1280');
    expect(refused).toEqual([]);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  }, 240_000);

  it('on a phone over a slow network, reloads stay healthy', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    await signUpAndLogIn(page, baseUrl, 'reloadslow');
    const refused = watch401(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // A slow 3G-like link: 400 ms round trips, ~400 kbit/s down.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 400,
      downloadThroughput: 50_000,
      uploadThroughput: 25_000,
    });
    for (const path of ['/account/wallet/mytokens', '/account/settings/general']) {
      await page.goto(`${baseUrl}${path}`);
      await expectHealthy(page, `slow load of ${path}`);
      await page.reload();
      await expectHealthy(page, `slow reload of ${path}`);
    }
    await screenshot(page, 'reload-slow-375');
    expect(refused).toEqual([]);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  }, 180_000);

  it('a refused access token is refreshed once and the call retried, without an error state', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    const user = await signUpAndLogIn(page, baseUrl, 'refresh');
    // The API refuses the first addresses call as if the access token had just been revoked or
    // had expired in flight; the client must refresh the session and retry before showing anything.
    let refusedOnce = false;
    const addressCalls: string[] = [];
    await page.route(`**/api/users/${user.id}/addresses`, async (route) => {
      addressCalls.push(route.request().headers().authorization ?? '');
      if (!refusedOnce) {
        refusedOnce = true;
        await route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'unauthenticated', message: 'Unauthorized', requestId: 'e2e' },
          }),
        });
        return;
      }
      await route.continue();
    });
    await page.goto(`${baseUrl}/account/settings/general`);
    // The refresh and the retry may still be on their way when the page first settles.
    await expect.poll(() => addressCalls.length, { timeout: 15_000 }).toBe(2);
    await expectHealthy(page, 'settings after one refused call');
    await page.getByText('No addresses yet').waitFor();
    expect(refusedOnce).toBe(true);
    // Both attempts carried a token; the retry carried the refreshed one.
    expect(addressCalls.every((value) => value.startsWith('Bearer '))).toBe(true);
    expect(addressCalls[1]).not.toBe(addressCalls[0]);
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
