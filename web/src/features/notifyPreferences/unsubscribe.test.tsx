import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import { failure, ok } from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { deferred, mockApi, renderRoute } from '../../test/utils';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const CALL = '/api/notifications/unsubscribe';
/** A well-formed token of user-1 for the auctions e-mails (only the server checks the signature). */
const TOKEN = `${btoa('user-1').replace(/=+$/, '')}.auctions.${'s'.repeat(43)}`;
const pathFor = (token: string) => `/unsubscribe?token=${encodeURIComponent(token)}`;

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

type Handler = Parameters<typeof mockApi>[0][string];

/** A guest (no user pool in the config) opening the e-mail's link. */
function renderAsGuest(path: string, call: Handler = () => ok({ group: 'auctions' })) {
  const fetchMock = mockApi({ '/api/config': () => ok(configFixture()), [CALL]: call });
  return { fetchMock, ...renderRoute(path) };
}

const posts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([input]) => String(input).endsWith(CALL));

describe('/unsubscribe', () => {
  it('names the e-mails it stops and calls nothing until confirmed', async () => {
    const answer = deferred<Response>();
    const { fetchMock } = renderAsGuest(pathFor(TOKEN), () => answer.promise);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Stop these e-mails?' }),
    ).toBeTruthy();
    expect(screen.getByText('You will no longer receive e-mails about auctions.')).toBeTruthy();
    expect(document.title).toBe('Unsubscribe · MintMarket');
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    );
    // Mail scanners open links: loading the page must not unsubscribe.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts(fetchMock)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    const busy = await screen.findByRole('button', { name: /Unsubscribing/ });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    const calls = posts(fetchMock);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(calls[0]?.[1]?.body))).toEqual({ token: TOKEN });

    answer.resolve(ok({ group: 'auctions' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' }),
    ).toBeTruthy();
    expect(screen.getByText('You will no longer receive e-mails about auctions.')).toBeTruthy();
    // A guest reaches the settings through the login.
    const login = screen.getByRole('link', { name: 'Log in to your settings' });
    expect(login.getAttribute('href')).toBe('/session/login');
    expect(screen.queryByRole('link', { name: 'Open e-mail settings' })).toBeNull();
  });

  it('names each group in its own words', async () => {
    renderAsGuest(pathFor(TOKEN.replace('.auctions.', '.followed.')));
    expect(
      await screen.findByText(
        'You will no longer receive e-mails about new offerings by sellers you follow.',
      ),
    ).toBeTruthy();
  });

  it('offers the settings to a logged-in user once done', async () => {
    storeSignedInSession();
    mockApi({
      '/api/config': () => ok(configWithAuthFixture()),
      '/api/users/user-1/user-profile': () => ok(ownProfileFixture()),
      [CALL]: () => ok({ group: 'orders' }),
    });
    renderRoute(pathFor(TOKEN.replace('.auctions.', '.orders.')));
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByText('You will no longer receive e-mails about orders and payments.'),
    ).toBeTruthy();
    const settings = await screen.findByRole('link', { name: 'Open e-mail settings' });
    expect(settings.getAttribute('href')).toBe('/account/settings/general');
  });

  it('shows a link that is not ours as invalid, without calling the API', async () => {
    const { fetchMock } = renderAsGuest(pathFor('x'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }),
    ).toBeTruthy();
    expect(screen.getByText(/This unsubscribe link is not valid\./)).toBeTruthy();
    // (Once the session is known: a guest.)
    expect(await screen.findByRole('link', { name: 'Log in to your settings' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
    expect(posts(fetchMock)).toHaveLength(0);
  });

  it('shows a missing token as invalid', async () => {
    renderAsGuest('/unsubscribe');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }),
    ).toBeTruthy();
  });

  it('shows the way to the settings when the server refuses the token', async () => {
    renderAsGuest(pathFor(TOKEN), () => failure('notifications.errors.unsubscribe_invalid', 400));
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is not valid' }),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'This unsubscribe link is not valid. Open it again from the e-mail, or change your e-mail preferences in your settings.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in to your settings' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Unsubscribe|Try again/ })).toBeNull();
  });

  it('keeps the page on a network failure and unsubscribes on retry', async () => {
    let offline = true;
    const { fetchMock } = renderAsGuest(pathFor(TOKEN), () => {
      if (offline) throw new TypeError('Failed to fetch');
      return ok({ group: 'auctions' });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "We couldn't unsubscribe you. Can't connect with the network",
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Stop these e-mails?' })).toBeTruthy();

    offline = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' }),
    ).toBeTruthy();
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(2));
  });
});
