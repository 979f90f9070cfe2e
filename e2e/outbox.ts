import type { Page } from 'playwright-core';

interface OutboxMessage {
  kind: 'email' | 'sms';
  at: string;
  to?: string[];
  phoneNumber?: string;
  text?: string | null;
  message?: string;
}

/**
 * The newest 4-digit pin sent to an e-mail address or a phone number, read from the twin's dev
 * outbox (/dev/outbox.json), polling until it arrives. `after` skips pins sent before a moment.
 */
export async function waitForPin(
  baseUrl: string,
  kind: 'email' | 'sms',
  to: string,
  after = '',
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/dev/outbox.json`);
    const { messages } = (await response.json()) as { messages: OutboxMessage[] };
    const newest = messages
      .filter((message) =>
        kind === 'email'
          ? message.kind === 'email' && (message.to ?? []).includes(to)
          : message.kind === 'sms' && message.phoneNumber === to,
      )
      .filter((message) => message.at > after)
      .sort((a, b) => (a.at < b.at ? 1 : -1))[0];
    const match = /\b(\d{4})\b/.exec((kind === 'email' ? newest?.text : newest?.message) ?? '');
    if (match?.[1] !== undefined) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no ${kind} pin for ${to} within ${timeoutMs} ms`);
}

/** Types a 4-digit pin into the code boxes of the current step. */
export async function typePin(page: Page, pin: string): Promise<void> {
  await page.getByLabel('Digit 1 of 4').first().click();
  await page.keyboard.type(pin);
}

/**
 * A new individual account (sign-up through the API), then logged in through the login page with
 * both pins from the outbox. Answers the account's nick, e-mail and id.
 */
export async function signUpAndLogIn(
  page: Page,
  baseUrl: string,
  prefix: string,
  /** A fixed e-mail (e.g. the twin's support account, which sign-up makes an admin). */
  email?: string,
): Promise<{ id: string; nick: string; email: string }> {
  const stamp = `${prefix}${Date.now().toString(36)}`;
  const phone = `+447${String(Date.now()).slice(-9)}`;
  const response = await fetch(`${baseUrl}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user: {
        user_option: 'individual',
        nick: stamp,
        email: email ?? `${stamp}@example.com`,
        phone,
        name: 'Mina',
        surname: 'Maker',
        terms: true,
      },
    }),
  });
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}`);
  const { data } = (await response.json()) as { data: { id: string; nick: string; email: string } };
  await page.goto(`${baseUrl}/session/login`);
  await page.getByLabel(/^E-mail\b/).fill(data.email);
  const before = new Date().toISOString();
  await page.getByRole('button', { name: 'Continue' }).click();
  await typePin(page, await waitForPin(baseUrl, 'email', data.email, before));
  await typePin(page, await waitForPin(baseUrl, 'sms', phone, before));
  // The account button (top bar, or bottom bar on phones), unless the first-login profile modal
  // opened over it (on phones it covers the page, so the bars are hidden from the roles).
  await page
    .getByRole('button', { name: /^Account( menu)?$/ })
    .or(page.getByRole('dialog', { name: 'Complete your profile' }))
    .first()
    .waitFor({ timeout: 20_000 });
  return data;
}

/** The twin's support account (an admin: ADMIN_EMAILS), with a phone of its own for its pins. */
const SUPPORT = { email: 'support@example.com', phone: '+447000000001' } as const;

/**
 * Logs the page in as the twin's support account, signing it up first when no journey of this
 * run has (journeys run in any order; each may need support's approval).
 */
export async function logInAsSupport(page: Page, baseUrl: string): Promise<void> {
  const stamp = `support${Date.now().toString(36)}`;
  const response = await fetch(`${baseUrl}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user: {
        user_option: 'individual',
        nick: stamp,
        email: SUPPORT.email,
        phone: SUPPORT.phone,
        name: 'Sam',
        surname: 'Support',
        terms: true,
      },
    }),
  });
  // 409: signed up by an earlier journey of this run, with the same phone.
  if (response.status !== 201 && response.status !== 409) {
    throw new Error(`support sign-up answered ${response.status}`);
  }
  await page.goto(`${baseUrl}/session/login`);
  await page.getByLabel(/^E-mail\b/).fill(SUPPORT.email);
  const before = new Date().toISOString();
  await page.getByRole('button', { name: 'Continue' }).click();
  await typePin(page, await waitForPin(baseUrl, 'email', SUPPORT.email, before));
  await typePin(page, await waitForPin(baseUrl, 'sms', SUPPORT.phone, before));
  await page
    .getByRole('button', { name: /^Account( menu)?$/ })
    .or(page.getByRole('dialog', { name: 'Complete your profile' }))
    .first()
    .waitFor({ timeout: 20_000 });
}
