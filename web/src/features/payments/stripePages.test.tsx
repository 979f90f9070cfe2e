import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OnboardingStatus } from '@shared/onboarding';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import {
  FakeSocket,
  savedCardFixture,
  ok,
  failure,
  PAYMENT_CALLS,
} from '../../test/paymentFixtures';
import {
  ownProfileFixture,
  signedInSession,
  storeSignedInSession,
} from '../../test/profileFixtures';
import { mockApi, renderRoute } from '../../test/utils';
import { externalNavigation } from './externalNavigation';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const CHECK = PAYMENT_CALLS.check;
const REFRESH = PAYMENT_CALLS.refresh;
const LIST = PAYMENT_CALLS.list;
const SETUP = PAYMENT_CALLS.setup;
const ONBOARDING_URL = 'https://connect.stripe.test/setup/e/acct_1/fresh';

function check(status: OnboardingStatus) {
  return {
    onboarding_status: status,
    minter_completed: status === 'success',
    details_submitted: status !== 'continue_onboarding',
    currently_due: status === 'pending' ? ['individual.verification.document'] : [],
    pending_verification: status === 'verifying' ? ['individual.id_number'] : [],
  };
}

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(signedInSession);
  amplify.signOut.mockResolvedValue(undefined);
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(() => {
  Object.defineProperty(window, 'opener', { configurable: true, writable: true, value: null });
});

type Handlers = Parameters<typeof mockApi>[0];

function renderSignedIn(path: string, handlers: Handlers = {}) {
  const fetchMock = mockApi({
    '/api/config': () => ok({ ...configWithAuthFixture(), realtimeUrl: 'ws://localhost:3001' }),
    '/api/users/user-1/user-profile': () =>
      ok(ownProfileFixture({ onboarding_status: 'continue_onboarding' })),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    ...handlers,
  });
  return { fetchMock, ...renderRoute(path) };
}

function callsTo(fetchMock: ReturnType<typeof mockApi>, path: string) {
  return fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
}

describe('/redirecting', () => {
  it('is a blank page saying Stripe is opening, without the bars and without calls', async () => {
    const { fetchMock } = renderSignedIn('/redirecting');
    expect(await screen.findByRole('heading', { level: 1, name: 'Opening Stripe…' })).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    expect(
      fetchMock.mock.calls.filter(([input]) => String(input).includes('payment-gateway')),
    ).toEqual([]);
  });
});

describe('/stripe/onboarding/minter (Stripe return_url)', () => {
  it.each<[OnboardingStatus | 'not onboarded', string]>([
    ['success', 'You’re a seller now'],
    ['verifying', 'Stripe is verifying your details'],
    ['pending', 'Stripe needs more documents'],
    ['continue_onboarding', 'Your onboarding isn’t finished'],
    ['not onboarded', 'You haven’t started seller onboarding'],
  ])('checks the status and shows the outcome: %s', async (status, heading) => {
    renderSignedIn('/stripe/onboarding/minter', {
      [CHECK]: () =>
        status === 'not onboarded'
          ? failure('onboarding.errors.not_onboarded', 404)
          : ok(check(status)),
    });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });

  it('opened on its own, links to the profile and the settings, and refreshes the own profile', async () => {
    const { fetchMock } = renderSignedIn('/stripe/onboarding/minter', {
      [CHECK]: () => ok(check('success')),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You’re a seller now' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to your profile' }).getAttribute('href')).toBe(
      '/ana',
    );
    expect(screen.getByRole('link', { name: 'Go to settings' }).getAttribute('href')).toBe(
      '/account/settings/general',
    );
    expect(screen.queryByRole('button', { name: 'Close this window' })).toBeNull();
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/users/user-1/user-profile').length).toBeGreaterThan(1),
    );
  });

  it('in the onboarding window, tells the opener and offers to close', async () => {
    const opener = { postMessage: vi.fn(), closed: false };
    Object.defineProperty(window, 'opener', { configurable: true, writable: true, value: opener });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    renderSignedIn('/stripe/onboarding/minter', { [CHECK]: () => ok(check('verifying')) });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Stripe is verifying your details' }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(opener.postMessage).toHaveBeenCalledWith(
        { type: 'minter-onboarding:returned', status: 'verifying' },
        window.location.origin,
      ),
    );
    expect(screen.queryByRole('link', { name: 'Go to settings' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Close this window' }));
    expect(close).toHaveBeenCalled();
  });

  it('continues an unfinished onboarding on a fresh Stripe link', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    renderSignedIn('/stripe/onboarding/minter', {
      [CHECK]: () => ok(check('continue_onboarding')),
      [REFRESH]: () => ok({ onboarding_status: 'continue_onboarding', url: ONBOARDING_URL }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Stripe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(ONBOARDING_URL));
  });

  it('shows the refreshing error when the check fails, and checks again', async () => {
    let calls = 0;
    renderSignedIn('/stripe/onboarding/minter', {
      [CHECK]: () => {
        calls += 1;
        return calls === 1 ? failure('payments.errors.provider', 503) : ok(check('success'));
      },
    });
    expect(
      await screen.findByRole(
        'heading',
        {
          level: 1,
          name: 'Your seller status could not be refreshed.',
        },
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You’re a seller now' }),
    ).toBeTruthy();
  });

  it('follows the status live until the user is a seller', async () => {
    let status: OnboardingStatus = 'verifying';
    renderSignedIn('/stripe/onboarding/minter', { [CHECK]: () => ok(check(status)) });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Stripe is verifying your details' }),
    ).toBeTruthy();
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    status = 'success';
    act(() =>
      FakeSocket.broadcast({ type: 'stripe.updated', id: 'm-1', onboarding_status: 'complete' }),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You’re a seller now' }),
    ).toBeTruthy();
  });

  it('sends guests to /', async () => {
    amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
    const { router, fetchMock } = renderSignedIn('/stripe/onboarding/minter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
    expect(callsTo(fetchMock, CHECK)).toHaveLength(0);
  });
});

describe('/stripe/payment/refresh (Stripe refresh_url)', () => {
  it('asks for a fresh link once and goes on to it in place of this page', async () => {
    const replace = vi.spyOn(externalNavigation, 'replace').mockImplementation(() => undefined);
    const { fetchMock } = renderSignedIn('/stripe/payment/refresh', {
      [REFRESH]: () => ok({ onboarding_status: 'continue_onboarding', url: ONBOARDING_URL }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Getting a fresh link to Stripe…' }),
    ).toBeTruthy();
    await waitFor(() => expect(replace).toHaveBeenCalledWith(ONBOARDING_URL));
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
  });

  it.each<[OnboardingStatus, string, RegExp]>([
    ['pending', 'Stripe needs more documents', /Stripe needs more documents: see its e-mail/],
    ['verifying', 'Nothing to do on Stripe right now', /Stripe is verifying your details/],
  ])('says so when there is no link (%s)', async (status, heading, body) => {
    const replace = vi.spyOn(externalNavigation, 'replace').mockImplementation(() => undefined);
    renderSignedIn('/stripe/payment/refresh', {
      [REFRESH]: () => ok({ onboarding_status: status, url: null }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(screen.getByText(body)).toBeTruthy();
    expect(replace).not.toHaveBeenCalled();
  });

  it('shows a failure with a retry', async () => {
    const replace = vi.spyOn(externalNavigation, 'replace').mockImplementation(() => undefined);
    let calls = 0;
    renderSignedIn('/stripe/payment/refresh', {
      [REFRESH]: () => {
        calls += 1;
        return calls === 1
          ? failure('unexpected', 500)
          : ok({ onboarding_status: 'continue_onboarding', url: ONBOARDING_URL });
      },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'We couldn’t reopen Stripe' }),
    ).toBeTruthy();
    expect(screen.getByText('Stripe is not answering. Please try again.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(replace).toHaveBeenCalledWith(ONBOARDING_URL));
  });
});

describe('/stripe/payment/success and /cancel (Checkout in setup mode)', () => {
  it('says the card is saved, then opens the payment methods with the list refetched', async () => {
    const { router, fetchMock } = renderSignedIn('/stripe/payment/success?session_id=cs_test_1', {
      [LIST]: () => ok({ payment_methods: [savedCardFixture()] }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Card saved' })).toBeTruthy();
    expect(
      await screen.findByRole('listitem', { name: 'Visa •••• 4242' }, { timeout: 8_000 }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/settings/paymentmethod');
    expect(callsTo(fetchMock, LIST)).toHaveLength(1);
  });

  it('says no card was added, with the way back and another try', async () => {
    const assign = vi.spyOn(externalNavigation, 'assign').mockImplementation(() => undefined);
    renderSignedIn('/stripe/payment/cancel', {
      [SETUP]: () => ok({ session_id: 'cs_test_2', url: 'https://checkout.stripe.test/c/2' }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'No card was added' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to payment methods' }).getAttribute('href')).toBe(
      '/account/settings/paymentmethod',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/2'));
  });
});
