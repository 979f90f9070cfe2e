/// <reference lib="dom" />
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { jsErrors, useBrowser, newPage, screenshot } from './browser';
import { abbreviateCount } from '../shared/format';

interface Seller {
  nick: string;
  name: string;
  followers_counter: number;
}

const baseUrl = inject('baseUrl');
const browser = useBrowser();
let sellers: Seller[];

beforeAll(async () => {
  const response = await fetch(`${baseUrl}/api/users/sellers`);
  sellers = ((await response.json()) as { data: { items: Seller[] } }).data.items;
});

describe('walking skeleton in Chromium', () => {
  it('goes from home to Sellers and shows the seeded sellers, most followed first', async () => {
    expect(sellers.length).toBeGreaterThanOrEqual(5);
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(`${baseUrl}/`);
    await expect.poll(() => page.title()).not.toBe('');
    await screenshot(page, 'home-1280');

    await page.getByRole('navigation').getByRole('link', { name: 'Sellers' }).first().click();
    await page.waitForURL(`${baseUrl}/sellers`);
    const first = sellers[0] as Seller;
    const last = sellers[sellers.length - 1] as Seller;
    // The home page's top-sellers strip shows the first few: wait for the last one of the directory.
    await page.getByText(`@${last.nick}`, { exact: true }).waitFor();
    for (const seller of sellers) {
      await expect(page.getByText(`@${seller.nick}`, { exact: true }).count()).resolves.toBe(1);
    }
    // Order on screen follows the API: the most followed seller comes first.
    const shownNicks = await page.getByText(/^@[a-z0-9]+$/).allTextContents();
    expect(shownNicks.slice(0, sellers.length)).toEqual(sellers.map((seller) => `@${seller.nick}`));
    await expect(
      page.getByText(abbreviateCount(first.followers_counter), { exact: false }).count(),
    ).resolves.toBeGreaterThan(0);
    // Avatars are real images served from local S3 through /media.
    const avatars = page.locator('img[src^="/media/"]');
    await expect.poll(() => avatars.count()).toBeGreaterThan(0);
    await avatars.first().scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        avatars
          .first()
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
      )
      .toBe(true);
    await screenshot(page, 'sellers-1280');
    expect(jsErrors(page)).toEqual([]);
    await context.close();
  });

  it('shows the 404 page for an unknown route, with a way home', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(`${baseUrl}/this/route/does-not-exist`);
    await page.getByText('This page could not be found').first().waitFor();
    await screenshot(page, 'not-found-1280');
    await page
      .getByRole('link', { name: /home/i })
      .or(page.getByRole('button', { name: /home/i }))
      .first()
      .click();
    await page.waitForURL(`${baseUrl}/`);
    await context.close();
  });

  it('redirects any route containing rooms to home', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(`${baseUrl}/rooms/123`);
    await page.waitForURL(`${baseUrl}/`);
    await context.close();
  });

  it('uses the mobile layout on a phone: 50 px top bar, side bar in a drawer', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    await page.goto(`${baseUrl}/sellers`);
    await page
      .getByText(`@${(sellers[0] as Seller).nick}`)
      .first()
      .waitFor();
    const header = page.getByRole('banner');
    const box = await header.boundingBox();
    expect(box?.height).toBe(50);
    // No permanent side bar: the Sellers link is not visible until the menu opens.
    const sideLinks = page.getByRole('link', { name: 'Legal Terms' });
    await expect(sideLinks.first().isVisible()).resolves.toBe(false);
    const noHorizontalScroll = await page.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noHorizontalScroll).toBe(true);
    await screenshot(page, 'sellers-375');
    await page.getByRole('button', { name: /menu/i }).first().click();
    await page.getByRole('link', { name: 'Legal Terms' }).first().waitFor({ state: 'visible' });
    await screenshot(page, 'menu-375');
    await page.goto(`${baseUrl}/`);
    await screenshot(page, 'home-375');
    await page.goto(`${baseUrl}/nope`);
    await page.getByText('This page could not be found').first().waitFor();
    await screenshot(page, 'not-found-375');
    await context.close();
  });

  it('has a 70 px top bar and a permanent 210 px side bar on a desktop', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    await page.goto(`${baseUrl}/legal/terms`);
    expect((await page.getByRole('banner').boundingBox())?.height).toBe(70);
    const legal = page.getByRole('link', { name: 'Legal Terms' }).first();
    await legal.waitFor({ state: 'visible' });
    await expect.poll(() => page.title()).toMatch(/terms/i);
    await context.close();
  });
});
