import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Action, Decision } from '@shared/permissions';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PermissionPromptHost } from '../components/PermissionPromptHost';
import { authStateFixture, configFixture, userFixture } from '../test/fixtures';
import { ownProfileFixture } from '../test/profileFixtures';
import { createTestQueryClient } from '../test/utils';
import { AuthContext, type AuthState } from './auth';
import { configQueryKey } from './config';
import { I18nContext, i18n } from './i18n';
import { ownProfileQueryKey } from './ownProfile';
import { onboardingRegistry, permissionPrompt, usePermission } from './permission';

type Who =
  | 'guest'
  | 'individual'
  | 'unverified'
  | 'company'
  | 'unverified company'
  | 'seller'
  | 'seller company'
  | 'verifying company';
type Deployment = 'kyc' | 'fiat only' | 'neither';

const PROFILES = {
  individual: { user_option: 'individual', is_verified: true, onboarding_status: null },
  unverified: { user_option: 'individual', is_verified: false, onboarding_status: null },
  company: { user_option: 'company', is_verified: true, onboarding_status: null },
  'unverified company': { user_option: 'company', is_verified: false, onboarding_status: null },
  // The own profile's kept seller-onboarding status (complete: a seller).
  seller: { user_option: 'individual', is_verified: true, onboarding_status: 'complete' },
  'seller company': { user_option: 'company', is_verified: true, onboarding_status: 'complete' },
  'verifying company': {
    user_option: 'company',
    is_verified: true,
    onboarding_status: 'verifying',
  },
} as const;

const SWITCHES = {
  kyc: { identityProvider: 'manual', fiat: true },
  'fiat only': { identityProvider: 'none', fiat: true },
  neither: { identityProvider: 'none', fiat: false },
} as const;

function setup(who: Who, deployment: Deployment) {
  const openLogin = vi.fn();
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(configQueryKey, configFixture(SWITCHES[deployment]));
  const user = who === 'guest' ? null : userFixture();
  if (who !== 'guest') {
    queryClient.setQueryData(ownProfileQueryKey('sub-1'), ownProfileFixture(PROFILES[who]));
  }
  const auth: AuthState = authStateFixture({ status: user ? 'user' : 'guest', user, openLogin });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
    </QueryClientProvider>
  );
  const { result } = renderHook(() => usePermission(), { wrapper });
  return { guard: result.current, openLogin };
}

describe('usePermission', () => {
  it.each<[Action, Who, Deployment, Decision]>([
    ['follow', 'guest', 'kyc', 'login'],
    ['follow', 'unverified', 'kyc', 'allow'],
    ['follow', 'individual', 'neither', 'allow'],
    ['report', 'guest', 'neither', 'login'],
    ['accept', 'guest', 'kyc', 'login'],
    ['accept', 'unverified', 'kyc', 'verify'],
    ['accept', 'unverified', 'fiat only', 'onboard'],
    ['accept', 'unverified', 'neither', 'verify'],
    ['accept', 'individual', 'kyc', 'allow'],
    ['favourites', 'unverified', 'kyc', 'allow'],
    ['favourites', 'unverified company', 'kyc', 'verify'],
    ['favourites', 'company', 'kyc', 'allow'],
    ['room', 'unverified company', 'fiat only', 'onboard'],
    ['delist', 'individual', 'fiat only', 'onboard'],
    ['create_ticket', 'company', 'kyc', 'onboard'],
    ['delist', 'seller', 'fiat only', 'allow'],
    ['create_ticket', 'seller', 'kyc', 'allow'],
    ['delist', 'seller company', 'fiat only', 'allow'],
    ['create_ticket', 'verifying company', 'fiat only', 'onboard'],
    ['delist', 'verifying company', 'neither', 'onboard'],
  ])('%s by a %s user where the deployment has %s: %s', (action, who, deployment, expected) => {
    const { guard, openLogin } = setup(who, deployment);
    const run = vi.fn();
    let decision: Decision | undefined;
    act(() => {
      decision = guard(action, run);
    });
    expect(decision).toBe(expected);
    expect(run).toHaveBeenCalledTimes(expected === 'allow' ? 1 : 0);
    expect(openLogin).toHaveBeenCalledTimes(expected === 'login' ? 1 : 0);
    const prompt = permissionPrompt.current();
    expect(prompt?.kind ?? null).toBe(
      expected === 'verify' || expected === 'onboard' ? expected : null,
    );
  });

  it('hands onboarding to a registered onboarding modal instead of the explanation', () => {
    const { guard } = setup('individual', 'fiat only');
    const handler = vi.fn();
    const unregister = onboardingRegistry.register(handler);
    try {
      act(() => {
        guard('delist', vi.fn());
      });
      expect(handler).toHaveBeenCalledWith('delist');
      expect(permissionPrompt.current()).toBeNull();
    } finally {
      unregister();
    }
  });
});

function renderHost(auth: Partial<AuthState>) {
  const value = authStateFixture({ status: 'user', user: userFixture(), ...auth });
  render(
    <I18nContext value={i18n}>
      <MemoryRouter initialEntries={['/lumen?tab=items']}>
        <AuthContext.Provider value={value}>
          <PermissionPromptHost />
        </AuthContext.Provider>
      </MemoryRouter>
    </I18nContext>,
  );
}

describe('permission modals', () => {
  it('explains verification and logs in again through the pins, back to the page', async () => {
    const calls: string[] = [];
    const logout = vi.fn(async () => {
      calls.push('logout');
    });
    const openLogin = vi.fn((returnTo?: string) => {
      calls.push(`login ${returnTo}`);
    });
    renderHost({ logout, openLogin });
    act(() => permissionPrompt.show({ kind: 'verify', action: 'accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify your account' });
    expect(within(dialog).getByText(/verified e-mail address and a verified phone/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log in again' }));
    await waitFor(() => expect(calls).toEqual(['logout', 'login /lumen?tab=items']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('explains seller onboarding with no action but closing', async () => {
    renderHost({});
    act(() => permissionPrompt.show({ kind: 'onboard', action: 'delist' }));
    const dialog = await screen.findByRole('dialog', { name: 'Seller onboarding required' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Close']);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
