/// <reference lib="dom" />
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ListingContract } from '../shared/schemas/offerings';
import { newPage } from './browser';
import { logInAsSupport } from './outbox';

/**
 * What journeys that sell need (market, checkout): the logged-in page's access token, the API
 * with it, an item made through the items API as the mint form makes it, and seller onboarding
 * on Stripe's (the twin's) hosted form.
 */
export function sellerHelpers(baseUrl: string) {
  /** The access token Amplify keeps for the logged-in user of this page. */
  async function accessToken(page: Page): Promise<string> {
    const token = await page.evaluate(() => {
      for (let i = 0; i < localStorage.length; i += 1) {
        const key = localStorage.key(i) ?? '';
        if (key.endsWith('.accessToken')) return localStorage.getItem(key);
      }
      return null;
    });
    if (token === null) throw new Error('no access token in localStorage');
    return token;
  }

  async function api<T>(token: string, method: string, path: string, body?: unknown, key?: string) {
    const response = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  }

  /** A physical item of `copies` copies, made through the items API as the mint form makes it. */
  async function makeItem(token: string, userId: string, title: string, copies: number) {
    const image = await sharp({
      create: { width: 800, height: 800, channels: 3, background: '#0a3d62' },
    })
      .png()
      .toBuffer();
    const ticket = await api<{
      upload_id: string;
      post: { url: string; fields: Record<string, string> };
    }>(token, 'POST', `/users/${userId}/store-token-images`, {
      kind: 'image',
      content_type: 'image/png',
      size: image.length,
      name: 'print.png',
    });
    const form = new FormData();
    for (const [field, value] of Object.entries(ticket.post.fields)) form.append(field, value);
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'print.png');
    const stored = await fetch(ticket.post.url, { method: 'POST', body: form });
    expect(stored.status).toBe(204);
    await api(token, 'POST', `/users/${userId}/store-token-images/confirm`, {
      upload_id: ticket.upload_id,
    });
    const created = await api<{ item_id: string; status: string }>(
      token,
      'POST',
      `/users/${userId}/token/create`,
      {
        contract: {
          product_type: 'physical',
          title,
          description: 'A harbour at dawn, printed on cotton paper.',
          copies,
          symbol: 'harbour-print',
          images: [ticket.upload_id],
          shipping: { mode: 'delivery', countries: ['ES', 'GB'] },
          legal_terms: 'None',
          transferable: true,
          contact_email: 'maker@example.com',
          issuer: {
            legal_form: 'Sole trader',
            organisation: 'Harbour Prints',
            country: 'GB',
            email: 'maker@example.com',
            governing_law: 'English law',
            jurisdiction: 'London',
          },
        },
      },
      `e2e-${Date.now()}`,
    );
    return created.item_id;
  }

  /** Seller onboarding on Stripe's (the twin's) hosted form, from the begin call. */
  async function becomeSeller(page: Page, token: string) {
    const begun = await api<{ url: string }>(
      token,
      'POST',
      '/payment-gateway/onboarding-minter/begin',
      { country: 'GB' },
    );
    await page.goto(begun.url);
    await page.getByRole('button', { name: 'Submit: verified' }).click();
    await page.waitForURL(`${baseUrl}/stripe/onboarding/minter`);
    await page.getByText('You’re a seller now').waitFor({ timeout: 15_000 });
  }

  /**
   * Lists `offering` (offering/create's body, e.g. from `listingContract`) as the seller, waits for the listing to be done, and
   * has support approve it: answers the offering's id, on sale once this returns.
   */
  async function listApproved(
    browser: Browser,
    token: string,
    userId: string,
    offering: ListingContract,
  ): Promise<string> {
    const { offeringId } = await api<{ offeringId: string }>(
      token,
      'POST',
      `/users/${userId}/offering/create`,
      { offering },
      `e2e-list-${Date.now()}`,
    );
    for (let tries = 0; ; tries += 1) {
      const status = await api<{ step: string }>(
        token,
        'POST',
        `/users/${userId}/offering/create/status`,
        { offeringId },
      );
      if (status.step === 'done') break;
      if (tries > 100) throw new Error(`the listing stayed at ${status.step}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const support = await newPage(browser, 'desktop');
    await logInAsSupport(support.page, baseUrl);
    await api(await accessToken(support.page), 'POST', `/admin/offerings/${offeringId}/validate`, {
      decision: 'approve',
    });
    await support.context.close();
    return offeringId;
  }

  return { accessToken, api, becomeSeller, listApproved, makeItem };
}
