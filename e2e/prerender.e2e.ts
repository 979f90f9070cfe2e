/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { consoleErrors, jsErrors, useBrowser, newPage, screenshot, VIEWPORTS } from './browser';

/*
 * The public pages rendered on the server (infra/lib/web-pages.ts): `/` and `/sellers` at build
 * time, a public profile on request with its data (functions/pages). The page is on screen from
 * the HTML alone, and the app then hydrates that very markup: the same DOM nodes stay, nothing
 * moves, no hydration error, no call repeated, and the page works (its buttons answer).
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

const PAGES: {
  path: string;
  heading: { level: 1; name?: string };
  /** Text the HTML carries besides the heading. */
  text?: string;
  /** Calls the page must not make: their answers came in the HTML. */
  notAsked?: RegExp;
}[] = [
  { path: '/', heading: { level: 1 } },
  { path: '/sellers', heading: { level: 1, name: 'Sellers' } },
  {
    path: '/tidewater',
    heading: { level: 1, name: 'Tidewater Tickets Ltd' },
    text: 'Independent promoter of concerts and festivals',
    notAsked: /\/api\/users\/(get-by-nickname\/|[^/]+\/token\/getpublicproducts)/,
  },
];

describe('prerendered pages', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    for (const { path, heading, text, notAsked } of PAGES) {
      it(`${path} on a ${viewport}: painted from the HTML, then hydrated in place`, async () => {
        const { context, page } = await newPage(browser(), viewport);
        const asked: string[] = [];
        page.on('request', (request) => {
          if (notAsked?.test(request.url())) asked.push(request.url());
        });
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
        if (text !== undefined) expect(await page.getByText(text).isVisible()).toBe(true);
        // Roboto may still be arriving: its swap changes a heading's width whatever the app does,
        // and what is compared below is what hydration does to the page.
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
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
        expect(asked).toEqual([]);
        await context.close();
      });
    }
  }

  it("a profile's HTML names it: title, description and social preview for a shared link", async () => {
    const { context, page } = await newPage(browser(), 'phone');
    const response = await page.request.get(`${baseUrl}/tidewater`);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('public, max-age=0, s-maxage=60');
    const html = await response.text();
    expect(html).toContain('<title>Tidewater Tickets Ltd (@tidewater) · MintMarket</title>');
    expect(html).toMatch(/<meta property="og:title" content="Tidewater Tickets Ltd \(@tidewater\)/);
    expect(html).toMatch(/<meta name="description" content="Independent promoter of concerts/);
    expect(html).toContain(`<meta property="og:url" content="${baseUrl}/tidewater">`);
    // The site's own description is replaced, not repeated.
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain('<script type="application/json" id="page-data">');
    await context.close();
  });

  it('an unknown nick: 404, the frame, then the not-found page', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    const release = await holdApp(page);
    const response = await page.goto(`${baseUrl}/nobodyhere42`, { waitUntil: 'domcontentloaded' });
    expect(response?.status()).toBe(404);
    // Before the app runs: the bars and the profile's loading state.
    await page.getByRole('status', { name: 'Loading profile' }).waitFor();
    await screenshot(page, 'profile-frame-phone');
    release();
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

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
