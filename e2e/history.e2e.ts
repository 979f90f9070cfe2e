/// <reference lib="dom" />
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { consoleErrors, newPage, useBrowser } from './browser';

/*
 * The browser's own history with the app's router (web/src/lib/navigation.tsx): a link opens the
 * next page at its top, back returns to where the user was, forward and a reload work, in a real
 * browser, where back and forward arrive as popstate events.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

describe('history', () => {
  it('on a 375 px phone: a link opens at the top, back restores the scroll, forward and reload work', async () => {
    const { context, page } = await newPage(browser(), 'phone');
    // A slow phone (4x CPU): the next page commits in a transition, late, as it does on one; the
    // scroll of the page left must still be kept for its entry.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${baseUrl}/`);
    await page.waitForSelector('html[data-app="live"]');

    const seeAll = page.getByRole('link', { name: 'See all sellers' });
    await seeAll.scrollIntoViewIfNeeded();
    const homeY = await scrollY(page);
    expect(homeY).toBeGreaterThan(500);
    // Let the scroll be recorded for this history entry.
    await page.waitForTimeout(100);

    await seeAll.click();
    await page.waitForURL(`${baseUrl}/sellers`);
    await page.getByRole('heading', { level: 1, name: 'Sellers' }).waitFor();
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => scrollY(page)).toBeGreaterThan(homeY - 5);
    expect(Math.abs((await scrollY(page)) - homeY)).toBeLessThanOrEqual(5);

    await page.goForward();
    await page.waitForURL(`${baseUrl}/sellers`);
    await page.getByRole('heading', { level: 1, name: 'Sellers' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sellers' }).waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    expect(consoleErrors(page)).toEqual([]);
    await context.close();
  });
});
