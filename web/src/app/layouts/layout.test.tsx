import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AuthContext, type AuthState } from '../../lib/auth';
import { authStateFixture, configFixture, userFixture } from '../../test/fixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';
import { Root } from '../Root';
import { BottomBar, bottomActions } from './BottomBar';
import { EmptyLayout } from './EmptyLayout';
import { SessionLayout } from './SessionLayout';
import { isNavItemActive, NAV_ITEMS, visibleNavItems, type NavItem } from './navItems';

const allReady: NavItem[] = NAV_ITEMS.map((item) => ({ ...item, ready: true }));
const keys = (items: NavItem[]) => items.map((item) => item.key);
const emptySellers = () => jsonResponse({ data: { items: [], nextCursor: null } });

describe('side bar items', () => {
  it('hides FAQs while the faq switch is off and shows it when on', () => {
    const off = visibleNavItems(allReady, {
      switches: { faq: false, messages: false },
      user: null,
    });
    expect(keys(off)).toEqual(['market', 'sellers', 'support', 'terms']);
    const on = visibleNavItems(allReady, { switches: { faq: true, messages: false }, user: null });
    expect(keys(on)).toEqual(['market', 'sellers', 'faq', 'support', 'terms']);
  });

  it('shows Redeem only to a logged-in redeemer and Messages only when enabled', () => {
    const switches = { faq: false, messages: true };
    expect(keys(visibleNavItems(allReady, { switches, user: { redeemer: null } }))).not.toContain(
      'redeem',
    );
    const redeemer = visibleNavItems(allReady, { switches, user: { redeemer: 3 } });
    expect(keys(redeemer)).toEqual(['market', 'sellers', 'redeem', 'messages', 'support', 'terms']);
    expect(
      keys(
        visibleNavItems(allReady, {
          switches: { faq: false, messages: false },
          user: { redeemer: 0 },
        }),
      ),
    ).not.toContain('messages');
  });

  it('shows only items whose pages exist in this build', () => {
    const items = visibleNavItems(NAV_ITEMS, {
      switches: { faq: true, messages: true },
      user: null,
    });
    expect(keys(items)).toEqual(['market', 'sellers', 'terms']);
  });

  it('marks an item active when the first path segment matches', () => {
    const terms = { to: '/legal/terms' };
    expect(isNavItemActive(terms, '/legal/terms')).toBe(true);
    expect(isNavItemActive(terms, '/legal/privacy')).toBe(true);
    expect(isNavItemActive({ to: '/sellers' }, '/sellers?x=1')).toBe(true);
    expect(isNavItemActive(terms, '/')).toBe(false);
    expect(isNavItemActive({ to: '/market/preview/marketplace' }, '/market/product/1')).toBe(true);
  });

  it('renders the visible items and marks the current page', async () => {
    mockApi({
      '/api/config': () => jsonResponse({ data: configFixture({ faq: true }) }),
      '/api/users/sellers': emptySellers,
    });
    renderRoute('/sellers');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Market', 'Sellers', 'Legal Terms']);
    expect(within(nav).getByRole('link', { name: 'Sellers' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(
      within(nav).getByRole('link', { name: 'Legal Terms' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('opens as a drawer from the menu button and closes after choosing', async () => {
    setViewportWidth(PHONE_WIDTH);
    mockApi({ '/api/users/sellers': emptySellers });
    const { router } = renderRoute('/');
    const menu = screen.getByRole('button', { name: 'Open navigation menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(menu);
    const drawer = await screen.findByRole('presentation');
    await userEvent.click(within(drawer).getByRole('link', { name: 'Legal Terms' }));
    expect(router.state.location.pathname).toBe('/legal/terms');
    await waitFor(() => expect(menu.getAttribute('aria-expanded')).toBe('false'));
  });
});

describe('top bar', () => {
  it('shows Login and Create to guests', async () => {
    mockApi({ '/api/users/sellers': emptySellers });
    renderRoute('/');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(within(header).getByRole('button', { name: /^Create/ })).toBeTruthy();
    expect(within(header).getByRole('link', { name: 'MintMarket home' })).toBeTruthy();
  });

  it('hides Create on the sign-up page', async () => {
    mockApi({});
    renderRoute('/session/signup');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(within(header).queryByRole('button', { name: /^Create/ })).toBeNull();
  });

  it('opens the login modal from Login, staying on the page', async () => {
    mockApi({});
    const { router } = renderRoute('/legal/terms');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log in' });
    expect(within(dialog).getByRole('textbox', { name: 'E-mail' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/legal/terms');
  });
});

describe('bottom bar', () => {
  function renderBottomBar(auth: AuthState, width: number = PHONE_WIDTH) {
    setViewportWidth(width);
    renderRoute('/account/wallet', {
      routes: [
        {
          path: '*',
          element: (
            <AuthContext.Provider value={auth}>
              <BottomBar />
            </AuthContext.Provider>
          ),
        },
      ],
    });
  }

  it('is absent for guests', () => {
    renderBottomBar(authStateFixture());
    expect(screen.queryByRole('navigation', { name: 'Quick actions' })).toBeNull();
  });

  it('shows a logged-in user only the actions whose pages exist, and the account menu', async () => {
    renderBottomBar(
      authStateFixture({ status: 'user', user: userFixture({ nick: 'ana', verified: false }) }),
    );
    const nav = screen.getByRole('navigation', { name: 'Quick actions' });
    // Verify and notifications lead to pages later features add; the wallet exists.
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Wallet']);
    expect(within(nav).getByRole('link', { name: 'Wallet' }).getAttribute('href')).toBe(
      '/account/wallet',
    );
    await userEvent.click(within(nav).getByRole('button', { name: 'Account' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('@ana')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toBeTruthy();
  });

  it('is absent from 768 px, where the top bar carries the actions', () => {
    renderBottomBar(authStateFixture({ status: 'user', user: userFixture() }), 768);
    expect(screen.queryByRole('navigation', { name: 'Quick actions' })).toBeNull();
  });

  it('lists verify (or market), wallet and notifications in the spec order', () => {
    const keys = (user: { verified: boolean; guest: boolean }) =>
      bottomActions(user).map((action) => action.key);
    expect(keys({ verified: false, guest: false })).toEqual(['verify', 'wallet', 'notifications']);
    expect(keys({ verified: true, guest: true })).toEqual(['market', 'wallet']);
  });
});

describe('offline warning', () => {
  it('appears while offline and goes away when back online', async () => {
    mockApi({ '/api/users/sellers': emptySellers });
    let online = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
    renderRoute('/');
    expect(screen.queryByText("Can't connect with the network")).toBeNull();
    online = false;
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    // The banner's module loads on demand (the app preloads it once idle, while still online).
    expect(await screen.findByText("Can't connect with the network")).toBeTruthy();
    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByText("Can't connect with the network")).toBeNull();
  });
});

describe('session and empty layouts', () => {
  function renderLayout(layout: 'session' | 'empty') {
    renderRoute('/session/login', {
      routes: [
        {
          Component: Root,
          children: [
            {
              Component: layout === 'session' ? SessionLayout : EmptyLayout,
              children: [{ path: '*', element: <h1>Page body</h1> }],
            },
          ],
        },
      ],
    });
  }

  it('session: top bar and content, no side bar or menu button', () => {
    mockApi({});
    renderLayout('session');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(
      within(screen.getByRole('main')).getByRole('heading', { name: 'Page body' }),
    ).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open navigation menu' })).toBeNull();
  });

  it('empty: only the content', () => {
    mockApi({});
    renderLayout('empty');
    expect(screen.queryByRole('banner')).toBeNull();
    expect(
      within(screen.getByRole('main')).getByRole('heading', { name: 'Page body' }),
    ).toBeTruthy();
  });
});
