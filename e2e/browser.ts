import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
  type Response,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's Chromium, headless, with the flags this offline machine needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * One browser for an e2e file's tests, launched before them and closed after them: call it at the
 * file's top level; the function it returns gives the browser inside a test.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll: use it inside a test');
    return browser;
  };
}

export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 800 },
} as const;

export async function newPage(
  browser: Browser,
  viewport: keyof typeof VIEWPORTS,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    locale: 'en-GB',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const consoleLog: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleLog.push(message.text());
  });
  Object.assign(page, { jsErrors: errors, consoleErrors: consoleLog });
  return { context, page };
}

/** The uncaught errors the page has thrown since newPage. */
export function jsErrors(page: Page): string[] {
  return (page as Page & { jsErrors?: string[] }).jsErrors ?? [];
}

/** The errors the page has logged to its console since newPage (React's, a failed resource…). */
/** Records every /api answer with status 401 (and the call it answered). */
export function watch401(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() === 401) {
      refused.push(`${response.request().method()} ${url.pathname}`);
    }
  });
  return refused;
}

export function consoleErrors(page: Page): string[] {
  return (page as Page & { consoleErrors?: string[] }).consoleErrors ?? [];
}

/**
 * Screenshots land in e2e/artifacts/ (gitignored) so a person can look at them after a run. A full
 * page capture resizes the viewport to the page's height and back, and an open popover or menu
 * moves to its new place after that (MUI repositions it on resize, debounced): shoot those with
 * `fullPage: false`, so the next click does not land on an element still moving.
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const dir = join(import.meta.dirname, 'artifacts');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}
