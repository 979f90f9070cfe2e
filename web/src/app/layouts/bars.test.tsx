import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';

/**
 * The bars at each breakpoint of spec 001 §2 (768, 1265 px), for guests and logged-in users: what
 * a user can reach from them, without typing an address.
 */
const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const ok = (data: unknown) => jsonResponse({ data });
const USER = '/api/users/user-1';
const TABLET_WIDTH = 800;
const BELOW_SIDEBAR_WIDTH = 1264;
const WIDE_WIDTH = 1265;

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  amplify.signOut.mockResolvedValue(undefined);
});

function renderAsUser(path: string, profile = ownProfileFixture()) {
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  mockApi({
    '/api/config': () => ok(configWithAuthFixture()),
    [`${USER}/user-profile`]: () => ok(profile),
    [`${USER}/addresses`]: () => ok({ items: [] }),
    [`${USER}/get-user-limits`]: () =>
      ok({
        limitCapacity: 100 * 1024 * 1024,
        overlay: 0,
        firestore: 0,
        mints: { used: 0, limit: 5 },
        reached: false,
      }),
    [`${USER}/token/getmyproducts`]: () => ok({ items: [], nextCursor: null }),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
  });
  return renderRoute(path);
}

function renderAsGuest(path: string) {
  amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
  mockApi({ '/api/users/sellers': () => ok({ items: [], nextCursor: null }) });
  return renderRoute(path);
}

/** The top bar (the first banner: a page may have its own header). */
const banner = () => {
  const [top] = screen.getAllByRole('banner');
  if (!top) throw new Error('no top bar');
  return top;
};
const quickActions = () => screen.queryByRole('navigation', { name: 'Quick actions' });
const linkNames = (container: HTMLElement) =>
  within(container)
    .queryAllByRole('link')
    .map((link) => link.textContent);

describe('on a phone (375 px)', () => {
  beforeEach(() => setViewportWidth(PHONE_WIDTH));

  it('guests: Login and Create on top, the drawer from the menu button, no bottom bar', async () => {
    renderAsGuest('/');
    expect(within(banner()).getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(within(banner()).getByRole('button', { name: 'Create an item to sell' })).toBeTruthy();
    expect(quickActions()).toBeNull();
    // No permanent side bar below 1265 px: the same list is in the drawer.
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    const drawer = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(linkNames(drawer)).toEqual(['Market', 'Sellers', 'Legal Terms']);
  });

  it('logged in: Create on top, Wallet and Account in the bottom bar', async () => {
    const { router } = renderAsUser('/legal/terms');
    const create = await within(banner()).findByRole('link', { name: 'Create an item to sell' });
    expect(create.getAttribute('href')).toBe('/my-tokens/mint-form');
    // Wallet and the account button move to the bottom bar on phones.
    expect(within(banner()).queryByRole('link', { name: 'Wallet' })).toBeNull();
    expect(within(banner()).queryByRole('button', { name: 'Account menu' })).toBeNull();
    const bar = await waitFor(() => {
      const found = quickActions();
      if (!found) throw new Error('no bottom bar yet');
      return found;
    });
    expect(linkNames(bar)).toEqual(['Market', 'Wallet']);

    await userEvent.click(within(bar).getByRole('link', { name: 'Wallet' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/mytokens'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet' })).toBeTruthy();
    const tabs = screen.getByRole('tablist', { name: 'Wallet sections' });
    expect(within(tabs).getByRole('tab', { name: 'My items' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await userEvent.click(within(tabs).getByRole('tab', { name: 'My creations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/mymints'));
    // The bottom bar marks Wallet on every wallet tab.
    expect(within(bar).getByRole('link', { name: 'Wallet' }).className).toContain('Mui-selected');

    await userEvent.click(within(bar).getByRole('button', { name: 'Account' }));
    const menu = await screen.findByRole('menu');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/settings/general'));

    await userEvent.click(within(banner()).getByRole('link', { name: 'Create an item to sell' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create item' })).toBeTruthy();
  });
});

describe('on a tablet (800 px)', () => {
  beforeEach(() => setViewportWidth(TABLET_WIDTH));

  it('logged in: Create, Wallet and the account button on top; no bottom bar', async () => {
    const { router } = renderAsUser('/legal/terms');
    expect(await within(banner()).findByRole('button', { name: 'Account menu' })).toBeTruthy();
    expect(linkNames(banner())).toEqual(expect.arrayContaining(['Create', 'Wallet']));
    expect(quickActions()).toBeNull();
    expect(screen.getByRole('button', { name: 'Open navigation menu' })).toBeTruthy();
    await userEvent.click(within(banner()).getByRole('link', { name: 'Wallet' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/mytokens'));
  });
});

describe('the side bar from 1265 px', () => {
  it('is a drawer at 1264 px and permanent at 1265 px', async () => {
    setViewportWidth(BELOW_SIDEBAR_WIDTH);
    const first = renderAsGuest('/sellers');
    expect(screen.getByRole('button', { name: 'Open navigation menu' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    first.unmount();

    setViewportWidth(WIDE_WIDTH);
    renderAsGuest('/sellers');
    expect(screen.queryByRole('button', { name: 'Open navigation menu' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(linkNames(nav)).toEqual(['Market', 'Sellers', 'Legal Terms']);
  });
});

describe('the wallet', () => {
  it('opens on My items from /account/wallet', async () => {
    const { router } = renderAsUser('/account/wallet');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/mytokens'));
    expect(await screen.findByRole('tab', { name: 'My items' })).toBeTruthy();
  });

  it('has no My creations tab for an unverified user, whose page it is not', async () => {
    renderAsUser('/account/wallet/mytokens', ownProfileFixture({ is_verified: false }));
    const tabs = await screen.findByRole('tablist', { name: 'Wallet sections' });
    await waitFor(() =>
      expect(within(tabs).queryByRole('tab', { name: 'My creations' })).toBeNull(),
    );
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['My items', 'History']);
  });
});
