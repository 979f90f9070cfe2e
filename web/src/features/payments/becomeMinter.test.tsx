import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OnboardingStatus } from '@shared/onboarding';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { becomeMinterModal } from '../../lib/becomeMinterStore';
import { onboardingRegistry, permissionPrompt } from '../../lib/permission';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import { FakeSocket, fakeWindow, ok, failure, PAYMENT_CALLS } from '../../test/paymentFixtures';
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

const CHECK = PAYMENT_CALLS.check;
const BEGIN = PAYMENT_CALLS.begin;
const REFRESH = PAYMENT_CALLS.refresh;
const ONBOARDING_URL = 'https://connect.stripe.test/setup/e/acct_1/abc';
const DASHBOARD_URL = 'https://connect.stripe.test/express/acct_1/login';

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

type Handlers = Parameters<typeof mockApi>[0];

/** The signed-in app on the terms page, the own profile keeping `status`. */
function renderSignedIn(
  status: OnboardingStatus | null,
  handlers: Handlers = {},
  switches: Parameters<typeof configFixture>[0] = {},
) {
  const fetchMock = mockApi({
    '/api/config': () =>
      ok({
        ...configWithAuthFixture(),
        realtimeUrl: 'ws://localhost:3001',
        switches: configFixture(switches).switches,
      }),
    '/api/users/user-1/user-profile': () => ok(ownProfileFixture({ onboarding_status: status })),
    '/api/users/sellers': () => ok({ items: [], nextCursor: null }),
    ...handlers,
  });
  const view = renderRoute('/legal/terms');
  return { fetchMock, ...view };
}

function callsTo(fetchMock: ReturnType<typeof mockApi>, path: string) {
  return fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
}

async function openModal() {
  await screen.findByRole('button', { name: 'Account menu' });
  act(() => becomeMinterModal.open());
  return screen.findByRole('dialog');
}

/** window.open answers `popup` (null: the browser blocked it). */
function stubWindowOpen(popup: ReturnType<typeof fakeWindow> | null = fakeWindow()) {
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  return { open, popup };
}

describe('become-minter modal: a new seller', () => {
  it('opens from the account menu without a check, and begins in the chosen country in a new window', async () => {
    const bodies: unknown[] = [];
    const { fetchMock } = renderSignedIn(null, {
      [BEGIN]: (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ onboarding_status: 'continue_onboarding', url: ONBOARDING_URL });
      },
    });
    const { open, popup } = stubWindowOpen();
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Become a seller' }));

    const dialog = await screen.findByRole('dialog', { name: 'Become a seller' });
    expect(within(dialog).getByText('Not started')).toBeTruthy();
    expect(callsTo(fetchMock, CHECK)).toHaveLength(0);

    await userEvent.click(await within(dialog).findByRole('button', { name: 'Become a seller' }));
    expect(
      await within(dialog).findByRole('heading', { name: 'Where are you based?' }),
    ).toBeTruthy();
    const continueButton = within(dialog).getByRole('button', { name: 'Continue' });
    expect(continueButton.hasAttribute('disabled')).toBe(true);
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Country' }), 'ES');

    // The window opens in the click itself, before the call is awaited (or the browser blocks it).
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(open).toHaveBeenCalledWith('/redirecting', 'stripe-onboarding');
    expect(within(dialog).getByText('Opening Stripe…')).toBeTruthy();

    expect(await within(dialog).findByText('Continue in the Stripe window')).toBeTruthy();
    expect(bodies).toEqual([{ country: 'ES' }]);
    expect(popup?.location.replace).toHaveBeenCalledWith(ONBOARDING_URL);
    expect(popup?.close).not.toHaveBeenCalled();
  });

  it('shows the invalid-country outcome for a country Stripe does not serve, with a way back', async () => {
    const { fetchMock } = renderSignedIn(null);
    const { open } = stubWindowOpen();
    const dialog = await openModal();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Become a seller' }));
    await userEvent.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'Country' }),
      'AR',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    expect(
      await within(dialog).findByRole('heading', { name: 'Argentina is not supported yet' }),
    ).toBeTruthy();
    expect(within(dialog).getByText('Stripe has no sellers in this country yet.')).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
    expect(callsTo(fetchMock, BEGIN)).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    const country = await within(dialog).findByRole('combobox', { name: 'Country' });
    expect((country as HTMLSelectElement).value).toBe('AR');
  });

  it('says so when the browser blocks the window, and makes no call', async () => {
    const { fetchMock } = renderSignedIn(null);
    stubWindowOpen(null);
    const dialog = await openModal();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Become a seller' }));
    await userEvent.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'Country' }),
      'FR',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(
      await within(dialog).findByText(
        'Pop-ups are blocked: allow them for this site and try again.',
      ),
    ).toBeTruthy();
    expect(callsTo(fetchMock, BEGIN)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(await within(dialog).findByRole('combobox', { name: 'Country' })).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it.each([
    ['onboarding.errors.email_in_use', 'Email address already in use'],
    ['onboarding.errors.phone_in_use', 'Mobile number already in use'],
    ['unexpected', 'Stripe is not answering. Please try again.'],
  ])('closes the window and explains a begin refused with %s', async (code, text) => {
    renderSignedIn(null, { [BEGIN]: () => failure(code, code === 'unexpected' ? 500 : 409) });
    const { popup } = stubWindowOpen();
    const dialog = await openModal();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Become a seller' }));
    await userEvent.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'Country' }),
      'GB',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText(text)).toBeTruthy();
    expect(popup?.close).toHaveBeenCalled();
    expect(popup?.location.replace).not.toHaveBeenCalled();
  });
});

describe('become-minter modal: a begun onboarding', () => {
  it('checks the status on open (a spinner meanwhile), then continues with a fresh link', async () => {
    const answer = deferred<Response>();
    const { fetchMock } = renderSignedIn('continue_onboarding', {
      [CHECK]: () => answer.promise,
      [REFRESH]: () => ok({ onboarding_status: 'continue_onboarding', url: ONBOARDING_URL }),
    });
    const { popup } = stubWindowOpen();
    const dialog = await openModal();
    expect(await within(dialog).findByText('Checking your seller status…')).toBeTruthy();
    expect(
      within(dialog).getByRole('button', { name: 'Become a seller' }).hasAttribute('disabled'),
    ).toBe(true);

    answer.resolve(ok(check('continue_onboarding')));
    expect(await within(dialog).findByText('In progress')).toBeTruthy();
    const cta = within(dialog).getByRole('button', { name: 'Become a seller' });
    await waitFor(() => expect(cta.hasAttribute('disabled')).toBe(false));
    await userEvent.click(cta);

    expect(await within(dialog).findByText('Continue in the Stripe window')).toBeTruthy();
    expect(popup?.location.replace).toHaveBeenCalledWith(ONBOARDING_URL);
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
    expect(callsTo(fetchMock, BEGIN)).toHaveLength(0);
  });

  it('closes the window and shows the pending error when Stripe waits for documents', async () => {
    renderSignedIn('pending', {
      [CHECK]: () => ok(check('pending')),
      [REFRESH]: () => ok({ onboarding_status: 'pending', url: null }),
    });
    const { popup } = stubWindowOpen();
    const dialog = await openModal();
    expect(await within(dialog).findByText('Documents needed')).toBeTruthy();
    const cta = within(dialog).getByRole('button', { name: 'Become a seller' });
    await waitFor(() => expect(cta.hasAttribute('disabled')).toBe(false));
    await userEvent.click(cta);
    expect(
      await within(dialog).findByText(/Stripe needs more documents: see its e-mail/),
    ).toBeTruthy();
    expect(popup?.close).toHaveBeenCalled();
    expect(popup?.location.replace).not.toHaveBeenCalled();
  });

  it.each<[OnboardingStatus, string, string, boolean]>([
    ['verifying', 'Being verified', 'Become a seller', true],
    ['pending_email', 'Confirm your e-mail', 'Become a seller', true],
    ['continue_onboarding', 'In progress', 'Become a seller', false],
    ['success', 'Active', 'Open Stripe dashboard', false],
  ])(
    'with status %s shows "%s" and a "%s" button (disabled: %s)',
    async (status, chip, label, disabled) => {
      renderSignedIn(status, { [CHECK]: () => ok(check(status)) });
      const dialog = await openModal();
      expect(await within(dialog).findByText(chip)).toBeTruthy();
      const cta = within(dialog).getByRole('button', { name: label });
      await waitFor(() => expect(cta.hasAttribute('disabled')).toBe(disabled));
    },
  );

  it("opens a seller's Stripe dashboard through refresh", async () => {
    const { fetchMock } = renderSignedIn('complete', {
      [CHECK]: () => ok(check('success')),
      [REFRESH]: () => ok({ onboarding_status: 'success', url: DASHBOARD_URL }),
    });
    const { popup } = stubWindowOpen();
    const dialog = await openModal();
    expect(await screen.findByRole('dialog', { name: 'Your seller account' })).toBeTruthy();
    const cta = await within(dialog).findByRole('button', { name: 'Open Stripe dashboard' });
    await waitFor(() => expect(cta.hasAttribute('disabled')).toBe(false));
    await userEvent.click(cta);
    expect(await within(dialog).findByText('Your Stripe dashboard is open')).toBeTruthy();
    expect(popup?.location.replace).toHaveBeenCalledWith(DASHBOARD_URL);
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
  });

  it('treats a user the server has not onboarded as not started', async () => {
    renderSignedIn('continue_onboarding', {
      [CHECK]: () => failure('onboarding.errors.not_onboarded', 404),
    });
    const dialog = await openModal();
    expect(await within(dialog).findByText('Not started')).toBeTruthy();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Become a seller' }));
    expect(await within(dialog).findByRole('combobox', { name: 'Country' })).toBeTruthy();
  });

  it('shows the refreshing error when the check fails, and checks again on request', async () => {
    let calls = 0;
    renderSignedIn('verifying', {
      [CHECK]: () => {
        calls += 1;
        return calls === 1 ? failure('payments.errors.provider', 503) : ok(check('verifying'));
      },
    });
    const dialog = await openModal();
    expect(
      await within(dialog).findByText('Your seller status could not be refreshed.'),
    ).toBeTruthy();
    expect(
      within(dialog).getByRole('button', { name: 'Become a seller' }).hasAttribute('disabled'),
    ).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('Being verified')).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('checks again when the live channel says the status changed', async () => {
    let status: OnboardingStatus = 'verifying';
    renderSignedIn('verifying', { [CHECK]: () => ok(check(status)) });
    const dialog = await openModal();
    expect(await within(dialog).findByText('Being verified')).toBeTruthy();
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    status = 'success';
    act(() =>
      FakeSocket.broadcast({ type: 'stripe.updated', id: 'm-1', onboarding_status: 'complete' }),
    );
    expect(await within(dialog).findByText('Active')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Open Stripe dashboard' })).toBeTruthy();
  });

  it('checks again when the Stripe window reports back from the return page', async () => {
    let status: OnboardingStatus = 'continue_onboarding';
    renderSignedIn('continue_onboarding', {
      [CHECK]: () => ok(check(status)),
      [REFRESH]: () => ok({ onboarding_status: 'continue_onboarding', url: ONBOARDING_URL }),
    });
    stubWindowOpen();
    const dialog = await openModal();
    const cta = await within(dialog).findByRole('button', { name: 'Become a seller' });
    await waitFor(() => expect(cta.hasAttribute('disabled')).toBe(false));
    await userEvent.click(cta);
    expect(await within(dialog).findByText('Continue in the Stripe window')).toBeTruthy();
    status = 'verifying';
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'minter-onboarding:returned', status: 'verifying' },
        }),
      );
    });
    expect(await within(dialog).findByText('Being verified')).toBeTruthy();
  });
});

describe('become-minter modal: entry points', () => {
  it("takes the permission guard's onboard decisions", async () => {
    renderSignedIn(null);
    await screen.findByRole('button', { name: 'Account menu' });
    await waitFor(() => expect(onboardingRegistry.emit('delist')).toBe(true));
    const dialog = await screen.findByRole('dialog', { name: 'Become a seller' });
    expect(within(dialog).getByText('You need a seller account to do this.')).toBeTruthy();
    expect(permissionPrompt.current()).toBeNull();
  });

  it('starts afresh after closing', async () => {
    renderSignedIn(null);
    const dialog = await openModal();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Become a seller' }));
    expect(await within(dialog).findByRole('combobox', { name: 'Country' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const again = await openModal();
    expect(await within(again).findByText('Not started')).toBeTruthy();
    expect(within(again).queryByRole('combobox')).toBeNull();
  });

  it('is neither offered nor registered without card payments', async () => {
    renderSignedIn(null, {}, { fiat: false });
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    await within(menu).findByRole('menuitem', { name: 'Settings' });
    expect(within(menu).queryByRole('menuitem', { name: 'Become a seller' })).toBeNull();
    expect(onboardingRegistry.emit('delist')).toBe(false);
  });

  it('names the item "Seller account" once the user is a seller', async () => {
    renderSignedIn('complete', { [CHECK]: () => ok(check('success')) });
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Seller account' }));
    expect(await screen.findByRole('dialog', { name: 'Your seller account' })).toBeTruthy();
  });
});
