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

function renderAs(
  userOption: 'individual' | 'company',
  switches: Parameters<typeof configFixture>[0] = {},
) {
  mockApi({
    '/api/config': () =>
      ok({ ...configWithAuthFixture(), switches: configFixture(switches).switches }),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture({ user_option: userOption })),
    '/api/users/user-1/addresses': () => ok({ items: [] }),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
  });
  return renderRoute('/legal/terms');
}

async function openMenu() {
  await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
  return screen.findByRole('menu');
}

describe('account menu', () => {
  it.each([
    ['individual', 'My profile'],
    ['company', 'Company profile'],
  ] as const)('labels the profile item for the %s account type "%s"', async (userOption, label) => {
    renderAs(userOption);
    const menu = await openMenu();
    expect(within(menu).getByText('Logged in as')).toBeTruthy();
    expect(within(menu).getByText('@ana')).toBeTruthy();
    const profile = await within(menu).findByRole('menuitem', { name: label });
    expect(profile.getAttribute('href')).toBe('/ana');
    const names = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(names).toEqual([
      label,
      'Activity',
      'Settings',
      'Become a seller',
      'Edit profile',
      'Log out',
    ]);
  });

  it('goes to the settings page', async () => {
    const { router } = renderAs('individual');
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/settings/general');
  });

  it('opens the profile editor from the profile item where only companies mint', async () => {
    const { router } = renderAs('individual', { companyOnlyMinting: true });
    const menu = await openMenu();
    const profile = await within(menu).findByRole('menuitem', { name: 'My profile' });
    expect(profile.getAttribute('href')).toBeNull();
    await userEvent.click(profile);
    expect(await screen.findByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/legal/terms');
  });

  it('keeps routing a company to its profile where only companies mint', async () => {
    const { router } = renderAs('company', { companyOnlyMinting: true });
    const menu = await openMenu();
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Company profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/ana'));
  });
});
