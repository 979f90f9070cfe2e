import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown) => jsonResponse({ data });

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
});

function signedIn(switches: Parameters<typeof configFixture>[0] = {}) {
  return mockApi({
    '/api/config': () =>
      ok({ ...configWithAuthFixture(), switches: configFixture(switches).switches }),
    '/api/users/user-1/user-profile': () =>
      ok(ownProfileFixture({ user_option: 'company', entity_name: 'Ana Studio' })),
    '/api/users/user-1/addresses': () => ok({ items: [] }),
    '/api/users/get-by-nickname/ana': () => ok(ownProfileFixture()),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    '/api/payment-gateway/payment-methods': () => ok({ payment_methods: [] }),
  });
}

describe('/account/settings/general', () => {
  it('shows the account details read-only and opens the profile editor', async () => {
    signedIn();
    renderRoute('/account/settings/general');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    const account = screen.getByRole('region', { name: 'Account' });
    expect(await within(account).findByText('@ana')).toBeTruthy();
    expect(within(account).getByText('Company')).toBeTruthy();
    expect(within(account).getByText('ana@example.com')).toBeTruthy();
    expect(within(account).getByText('+447700900123')).toBeTruthy();
    expect(within(account).queryByRole('textbox')).toBeNull();
    await userEvent.click(within(account).getByRole('button', { name: 'Edit profile' }));
    expect(await screen.findByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
  });

  it('sends guests to /', async () => {
    amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
    mockApi({
      '/api/config': () => ok(configWithAuthFixture()),
      '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    });
    const { router } = renderRoute('/account/settings/general');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
    expect(screen.queryByRole('heading', { name: 'Settings' })).toBeNull();
  });
});

describe('/account/settings/paymentmethod', () => {
  it('redirects to general while fiat is off', async () => {
    signedIn({ fiat: false });
    const { router } = renderRoute('/account/settings/paymentmethod');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/settings/general');
  });

  it('is the saved cards page while fiat is on', async () => {
    signedIn({ fiat: true });
    const { router } = renderRoute('/account/settings/paymentmethod');
    expect(await screen.findByRole('region', { name: 'Saved cards' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/settings/paymentmethod');
  });
});

describe('the Selling section', () => {
  it('shows the kept seller status and opens the become-minter modal', async () => {
    signedIn();
    renderRoute('/account/settings/general');
    const selling = await screen.findByRole('region', { name: 'Selling' });
    expect(await within(selling).findByText('Not started')).toBeTruthy();
    await userEvent.click(within(selling).getByRole('button', { name: 'Become a seller' }));
    expect(await screen.findByRole('dialog', { name: 'Become a seller' })).toBeTruthy();
  });

  it('is not there while fiat is off', async () => {
    signedIn({ fiat: false });
    renderRoute('/account/settings/general');
    expect(await screen.findByRole('region', { name: 'Addresses' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Selling' })).toBeNull();
  });
});

describe('/account/profile', () => {
  it('goes to the public profile with the edit-profile modal open', async () => {
    signedIn();
    const { router } = renderRoute('/account/profile');
    expect(await screen.findByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/ana');
  });
});
