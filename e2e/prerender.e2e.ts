/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { consoleErrors, jsErrors, useBrowser, newPage, screenshot, VIEWPORTS } from './browser';

/*
 * The public pages rendered at build time (infra/lib/web-pages.ts): the page is on screen from
 * the HTML alone, and the app then hydrates that very markup: the same DOM nodes stay, nothing
 * moves, no hydration error, and the page works (its buttons answer).
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

/** Holds the app's first module until released: the page shows only what the HTML carried. */
async function holdApp(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/boot-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const PAGES = [
  { path: '/', heading: { level: 1 } },
  { path: '/sellers', heading: { level: 1, name: 'Sellers' } },
] as const;

describe('prerendered pages', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    for (const { path, heading } of PAGES) {
      it(`${path} on a ${viewport}: painted from the HTML, then hydrated in place`, async () => {
        const { context, page } = await newPage(browser(), viewport);
        const release = await holdApp(page);
        await page.goto(`${baseUrl}${path}`, { waitUntil: 'domcontentloaded' });

        // Before any of the app runs: the heading, the bars for this width, guest actions.
        const title = page.getByRole('heading', heading);
        await expect.poll(() => title.isVisible()).toBe(true);
        const sideBar = page.locator('nav[aria-label="Main navigation"]');
        const menuButton = page.getByRole('button', { name: 'Open navigation menu' });
        const wide = VIEWPORTS[viewport].width >= 1265;
        expect(await sideBar.isVisible()).toBe(wide);
        expect(await menuButton.isVisible()).toBe(!wide);
        await page.evaluate(() => {
          const marked = window as unknown as { prerenderedTitle?: Element | null };
          marked.prerenderedTitle = document.querySelector('h1');
        });
        const before = await title.boundingBox();
        await screenshot(page, `prerendered-${path === '/' ? 'home' : path.slice(1)}-${viewport}`);

        // A tap on Login before the app runs is held, then answered once the app is live.
        await page.getByRole('button', { name: 'Login' }).click();
        release();
        await page.locator('html[data-app="live"]').waitFor({ state: 'attached' });
        await page.getByRole('dialog').waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });

        // Hydrated, not re-rendered: the very same heading node, at the same place.
        const same = await page.evaluate(() => {
          const marked = window as unknown as { prerenderedTitle?: Element | null };
          return marked.prerenderedTitle === document.querySelector('h1');
        });
        expect(consoleErrors(page)).toEqual([]);
        expect(jsErrors(page)).toEqual([]);
        expect(same).toBe(true);
        expect(await title.boundingBox()).toEqual(before);
        expect(await sideBar.isVisible()).toBe(wide);
        await context.close();
      });
    }
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`a profile on a ${viewport}: its frame from the HTML, then the profile, asked once`, async () => {
      const { context, page } = await newPage(browser(), viewport);
      const profileCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/users/get-by-nickname/')) profileCalls.push(request.url());
      });
      const release = await holdApp(page);
      await page.goto(`${baseUrl}/tidewater`, { waitUntil: 'domcontentloaded' });

      // Before the app runs: the bars for this width and the profile's loading state.
      await page.getByRole('status', { name: 'Loading profile' }).waitFor();
      const wide = VIEWPORTS[viewport].width >= 1265;
      expect(await page.locator('nav[aria-label="Main navigation"]').isVisible()).toBe(wide);
      expect(await page.getByRole('button', { name: 'Open navigation menu' }).isVisible()).toBe(
        !wide,
      );
      await screenshot(page, `profile-frame-${viewport}`);

      // A tap on Login before the app runs is answered once it is live, though the app has
      // rendered its own top bar over the frame's.
      await page.getByRole('button', { name: 'Login' }).click();
      release();
      await page.locator('html[data-app="live"]').waitFor({ state: 'attached' });
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByRole('heading', { level: 1, name: 'Tidewater Tickets Ltd' }).waitFor();
      await page.getByRole('button', { name: 'Follow' }).waitFor();
      await screenshot(page, `profile-after-frame-${viewport}`);
      // The entry sent the profile call; the page took its answer instead of asking again.
      expect(profileCalls).toEqual([`${baseUrl}/api/users/get-by-nickname/tidewater`]);
      expect(consoleErrors(page)).toEqual([]);
      expect(jsErrors(page)).toEqual([]);
      await context.close();
    });
  }

  it('a deep link that is not prerendered gets the plain shell and renders on the client', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    const response = await page.request.get(`${baseUrl}/legal/terms`);
    expect(await response.text()).toContain('<div id="root"></div>');
    await page.goto(`${baseUrl}/legal/terms`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });
});
