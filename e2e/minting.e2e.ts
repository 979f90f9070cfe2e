/// <reference lib="dom" />
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { jsErrors, useBrowser, newPage, screenshot } from './browser';
import { signUpAndLogIn } from './outbox';

/**
 * Minting in Chromium against `npm start` (global-setup runs it with MINT_LIMIT_ITEMS=1, so one
 * creation reaches the limit): a physical item with two images → its page, My tokens and the
 * public profile; then the creation-limit block on the mint form.
 */
const baseUrl = inject('baseUrl');
const browser = useBrowser();

async function png(color: string): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 700, channels: 3, background: color } })
    .png()
    .toBuffer();
}

describe('minting in Chromium', () => {
  it('creates a physical item with two images, shows it in My tokens and on the profile, then the limit block', async () => {
    const { context, page } = await newPage(browser(), 'desktop');
    const user = await signUpAndLogIn(page, baseUrl, 'mint');

    await page.goto(`${baseUrl}/my-tokens/mint-form`);
    await page.getByRole('heading', { name: 'Create item', level: 1 }).waitFor();
    await page.getByLabel(/^Title\b/).fill('Blue stoneware bowl');
    await page.getByLabel(/^Description\b/).fill('Hand-thrown, glazed in cobalt blue. 15 cm.');
    await page.getByLabel(/^Copies\b/).fill('3');
    await page.getByLabel(/^Symbol\b/).fill('blue-bowl');
    await page.getByLabel('Choose images').setInputFiles([
      { name: 'bowl-front.png', mimeType: 'image/png', buffer: await png('#1e3799') },
      { name: 'bowl-side.png', mimeType: 'image/png', buffer: await png('#4a69bd') },
    ]);
    const countries = page.getByRole('combobox', { name: /^Delivery countries\b/ });
    await countries.click();
    await countries.fill('Spain');
    await page.getByRole('option', { name: 'Spain (ES)' }).click();
    await page.getByLabel('No legal terms (None)').check();
    await page.getByLabel(/^Contact e-mail\b/).fill(user.email);
    await page.getByLabel(/^Organisation\b/).fill('Mina Maker Ceramics');
    await page.getByLabel(/^Legal form\b/).fill('Sole trader');
    await page.getByLabel(/^Issuer country\b/).selectOption('ES');
    await page.getByLabel(/^Issuer e-mail\b/).fill(user.email);
    await page.getByLabel(/^Governing law\b/).fill('Spanish law');
    await page.getByLabel(/^Jurisdiction\b/).fill('Courts of Madrid');
    await screenshot(page, 'mint-form-1280');
    // Enabled once both images are uploaded and checked.
    await page.getByRole('button', { name: 'Create item' }).click();

    await page.waitForURL(/\/market\/product\/[0-9A-Z]{26}$/, { timeout: 30_000 });
    const itemUrl = page.url();
    await page.getByRole('heading', { name: 'Blue stoneware bowl' }).first().waitFor();
    // Three copies, serials 1–3, all owned by the creator.
    for (const serial of [1, 2, 3]) {
      await page.getByText(`#${serial} of 3`, { exact: true }).waitFor();
    }
    expect(await page.getByRole('link', { name: `@${user.nick}` }).count()).toBeGreaterThanOrEqual(
      3,
    );
    await screenshot(page, 'item-page-1280');
    // Each copy's provenance: created, verified against the copy's chain head.
    await page.getByRole('button', { name: 'History of copy #2' }).click();
    const history = page.getByRole('dialog', { name: 'History of copy #2' });
    await history.getByText('Verified').waitFor();
    await history.getByText('Created').first().waitFor();
    await screenshot(page, 'item-history-1280');
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });

    await page.goto(`${baseUrl}/account/wallet/mytokens`);
    await page.getByText('Blue stoneware bowl').first().waitFor();
    await page.goto(`${baseUrl}/${user.nick}`);
    await page.getByText('Blue stoneware bowl').first().waitFor();
    await screenshot(page, 'profile-items-1280');

    // One creation was the limit: the form shows the block instead of the submit button.
    await page.goto(`${baseUrl}/my-tokens/mint-form`);
    await page.getByRole('region', { name: 'Creation limit reached' }).waitFor();
    await page.getByText('Items created: 1 of 1').waitFor();
    expect(await page.getByRole('button', { name: 'Create item' }).count()).toBe(0);
    await screenshot(page, 'mint-limit-1280');
    expect(jsErrors(page)).toEqual([]);
    expect(itemUrl).toContain('/market/product/');
    await context.close();
  });
});
