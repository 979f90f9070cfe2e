import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { afterLoginPath } from '../../lib/auth';
import { hasStoredSession } from '../../lib/authClient';
import { authFixture, configFixture, configWithAuthFixture } from '../../test/fixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { loginErrorCode } from './loginErrors';
import { storeSignedInSession } from '../../test/profileFixtures';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const configWithAuth = () => jsonResponse({ data: configWithAuthFixture() });

const claims = {
  sub: '0f1e-uuid',
  'cognito:username': 'user-1',
  email: 'ana@example.com',
  nickname: 'ana',
};
const signedIn = {
  tokens: {
    accessToken: { toString: () => 'access-token', payload: claims },
    idToken: { toString: () => 'id-token', payload: claims },
  },
};
const noSession = { tokens: undefined };

const challenge = (step: 'email' | 'phone', extra: Record<string, string> = {}) => ({
  isSignedIn: false,
  nextStep: {
    signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
    additionalInfo: {
      step,
      destination: step === 'email' ? 'a***@example.com' : '+44*****123',
      ...extra,
    },
  },
});
const done = { isSignedIn: true, nextStep: { signInStep: 'DONE' } };

function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The app's top bar (pages may have banners of their own). */
const topBar = () => screen.getAllByRole('banner')[0] as HTMLElement;

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue(noSession);
  amplify.signOut.mockResolvedValue(undefined);
});

async function openModal() {
  await userEvent.click(within(topBar()).getByRole('button', { name: 'Login' }));
  return screen.findByRole('dialog', { name: 'Log in' });
}

async function submitEmail(container: HTMLElement, email = 'Ana@Example.com') {
  const field = within(container).getByRole('textbox', { name: 'E-mail' });
  await userEvent.type(field, email);
  await userEvent.click(within(container).getByRole('button', { name: 'Continue' }));
}

async function typePin(label: string, pin: string) {
  const group = await screen.findByRole('group', { name: label });
  await userEvent.click(within(group).getByRole('textbox', { name: 'Digit 1 of 4' }));
  await userEvent.keyboard(pin);
}

describe('login modal', () => {
  it('logs in through the e-mail pin and the phone pin and stays on the page', async () => {
    mockApi({ '/api/config': configWithAuth });
    amplify.signIn.mockResolvedValue(challenge('email'));
    amplify.confirmSignIn.mockResolvedValueOnce(challenge('phone')).mockResolvedValueOnce(done);
    const { router } = renderRoute('/legal/terms');
    const dialog = await openModal();
    expect(within(dialog).queryByLabelText('Password')).toBeNull();

    const field = within(dialog).getByRole('textbox', { name: 'E-mail' });
    const submit = within(dialog).getByRole('button', { name: 'Continue' });
    expect(submit).toHaveProperty('disabled', true);
    await userEvent.type(field, 'Ana@Example');
    expect(field).toHaveProperty('value', 'ana@example');
    expect(submit).toHaveProperty('disabled', true);
    await userEvent.type(field, '.com');
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    await userEvent.click(submit);

    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'ana@example.com',
      options: { authFlowType: 'CUSTOM_WITHOUT_SRP' },
    });
    expect(await within(dialog).findByRole('heading', { name: 'Check your e-mail' })).toBeTruthy();
    expect(within(dialog).getByText('a***@example.com')).toBeTruthy();

    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    await typePin('E-mail code', '1234');
    expect(amplify.confirmSignIn).toHaveBeenNthCalledWith(1, { challengeResponse: '1234' });
    expect(await within(dialog).findByRole('heading', { name: 'Check your phone' })).toBeTruthy();

    await typePin('Phone code', '5678');
    expect(amplify.confirmSignIn).toHaveBeenNthCalledWith(2, { challengeResponse: '5678' });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/legal/terms');
    const header = topBar();
    expect(within(header).queryByRole('button', { name: 'Login' })).toBeNull();
    expect(within(header).getByRole('button', { name: 'Account menu' })).toBeTruthy();
  });

  it('keeps the step and shows the error after a wrong pin; a pasted code is accepted', async () => {
    mockApi({ '/api/config': configWithAuth });
    amplify.signIn.mockResolvedValue(challenge('email'));
    amplify.confirmSignIn.mockResolvedValue(challenge('email', { triesLeft: '4' }));
    renderRoute('/legal/terms');
    const dialog = await openModal();
    await submitEmail(dialog);

    const group = await within(dialog).findByRole('group', { name: 'E-mail code' });
    await userEvent.click(within(group).getByRole('textbox', { name: 'Digit 1 of 4' }));
    await userEvent.paste('9 9-9 9');
    expect(amplify.confirmSignIn).toHaveBeenCalledWith({ challengeResponse: '9999' });
    expect(
      await within(dialog).findByText(
        "That code isn't right. Check it and try again. 4 tries left.",
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Check your e-mail' })).toBeTruthy();
  });

  it('shows "logging in" while the phone pin is checked, and the phone step again if wrong', async () => {
    mockApi({ '/api/config': configWithAuth });
    amplify.signIn.mockResolvedValue(challenge('email'));
    let answerPhone: (value: unknown) => void = () => {};
    amplify.confirmSignIn
      .mockResolvedValueOnce(challenge('phone'))
      .mockReturnValueOnce(new Promise((resolve) => (answerPhone = resolve)));
    renderRoute('/legal/terms');
    const dialog = await openModal();
    await submitEmail(dialog);
    await typePin('E-mail code', '1234');
    await typePin('Phone code', '0000');
    expect(await within(dialog).findByText('Logging in…')).toBeTruthy();
    // Persistent while loading: Escape does not close it.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    answerPhone(challenge('phone', { triesLeft: '1' }));
    expect(await within(dialog).findByRole('heading', { name: 'Check your phone' })).toBeTruthy();
    expect(
      within(dialog).getByText("That code isn't right. Check it and try again. 1 try left."),
    ).toBeTruthy();
  });

  it('holds "send a new code" during the cooldown', async () => {
    mockApi({ '/api/config': configWithAuth });
    amplify.signIn.mockResolvedValue(challenge('email'));
    amplify.confirmSignIn.mockResolvedValue(challenge('email'));
    renderRoute('/legal/terms');
    const dialog = await openModal();
    await submitEmail(dialog);
    const resend = await within(dialog).findByRole('button', { name: /Send a new code in/ });
    expect(resend).toHaveProperty('disabled', true);
  });

  it('shows "Account temporally blocked." for a blocked account', async () => {
    mockApi({ '/api/config': configWithAuth });
    amplify.signIn.mockRejectedValue(
      namedError(
        'UserLambdaValidationException',
        'DefineAuthChallenge failed with error Account temporally blocked.',
      ),
    );
    renderRoute('/legal/terms');
    const dialog = await openModal();
    await submitEmail(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Account temporally blocked.',
    );
  });

  it('has no password field while password login is off, and uses it when switched on', async () => {
    mockApi({
      '/api/config': () =>
        jsonResponse({ data: { ...configFixture({ passwordLogin: true }), auth: authFixture() } }),
    });
    amplify.signIn.mockResolvedValue(done);
    renderRoute('/legal/terms');
    const dialog = await openModal();
    const password = await within(dialog).findByLabelText('Password');
    expect(
      within(dialog).getByRole('link', { name: 'Forgot your password?' }).getAttribute('href'),
    ).toBe('/session/forgot');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'E-mail' }),
      'ana@example.com',
    );
    await userEvent.type(password, 'short');
    expect(await within(dialog).findByText('Use 6 to 32 characters.')).toBeTruthy();
    await userEvent.type(password, '-enough');
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'ana@example.com',
      password: 'short-enough',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('reports login as unavailable when the deployment has no user pool', async () => {
    mockApi({});
    renderRoute('/legal/terms');
    const dialog = await openModal();
    await submitEmail(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      "Login isn't available right now. Please try again later.",
    );
    expect(amplify.signIn).not.toHaveBeenCalled();
  });
});

describe('login errors', () => {
  it.each([
    [42, 'Too many wrong codes. Please try again in 42 seconds.'],
    [1, 'Too many wrong codes. Please try again in 1 second.'],
    [60, 'Too many wrong codes. Please try again in 1 minute.'],
    [900, 'Too many wrong codes. Please try again in 15 minutes.'],
    [3601, 'Too many wrong codes. Please try again in 61 minutes.'],
  ])('tells in the login modal how long to wait (%i s)', async (seconds, text) => {
    mockApi({ '/api/config': configWithAuth });
    amplify.signIn.mockRejectedValue(
      namedError(
        'UserLambdaValidationException',
        `CreateAuthChallenge failed with error login.errors.wait:${seconds}.`,
      ),
    );
    renderRoute('/legal/terms');
    const dialog = await openModal();
    await submitEmail(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(text);
  });

  it.each([
    [namedError('NotAuthorizedException', 'Incorrect username or password.'), 'login.errors.401'],
    [namedError('UserNotFoundException', 'User does not exist.'), 'login.errors.401'],
    [namedError('NotAuthorizedException', 'User is disabled.'), 'login.errors.403'],
    [
      namedError('UserLambdaValidationException', 'failed: Account temporally blocked.'),
      'login.errors.403',
    ],
    [
      namedError(
        'UserLambdaValidationException',
        'PreAuthentication failed with error login.errors.403.',
      ),
      'login.errors.403',
    ],
    [namedError('TooManyRequestsException', 'Rate exceeded'), 'rate_limited'],
    [namedError('ForbiddenException', 'Request not allowed due to WAF block.'), 'rate_limited'],
    [namedError('UserLambdaValidationException', 'failed with error rate_limited'), 'rate_limited'],
    [
      namedError(
        'UserLambdaValidationException',
        'CreateAuthChallenge failed with error login.errors.wait:42.',
      ),
      'login.errors.wait:42',
    ],
    [
      namedError(
        'UserLambdaValidationException',
        'VerifyAuthChallengeResponse failed with error login.errors.wait:900.',
      ),
      'login.errors.wait:900',
    ],
    [namedError('NetworkError', 'A network error has occurred.'), 'network'],
    [namedError('InternalErrorException', 'boom'), 'login.errors.500'],
    ['not even an error', 'login.errors.500'],
  ])('maps %s to %s', (error, code) => {
    expect(loginErrorCode(error)).toBe(code);
  });
});

describe('after login', () => {
  it('returns to the previous page unless it contains session', () => {
    expect(afterLoginPath('/sellers?page=2')).toBe('/sellers?page=2');
    expect(afterLoginPath('/session/login')).toBe('/?loggedForFirstTime=true');
    expect(afterLoginPath('/session/signup')).toBe('/?loggedForFirstTime=true');
    expect(afterLoginPath(undefined)).toBe('/?loggedForFirstTime=true');
  });

  it('goes home with loggedForFirstTime from the login page', async () => {
    mockApi({ '/api/config': configWithAuth, '/api/users/sellers': emptySellers });
    amplify.signIn.mockResolvedValue(challenge('email'));
    amplify.confirmSignIn.mockResolvedValueOnce(challenge('phone')).mockResolvedValueOnce(done);
    const { router } = renderRoute('/session/login');
    const main = screen.getByRole('main');
    await waitFor(() =>
      expect(within(main).getByRole('button', { name: 'Continue' })).toBeTruthy(),
    );
    await submitEmail(main);
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    await typePin('E-mail code', '1111');
    await typePin('Phone code', '2222');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toBe('?loggedForFirstTime=true');
  });
});

const emptySellers = () => jsonResponse({ data: { items: [], nextCursor: null } });

describe('access rules', () => {
  it.each(['/account/settings/general', '/account/wallet', '/checkout'])(
    'sends guests from %s to /',
    async (path) => {
      mockApi({ '/api/config': configWithAuth, '/api/users/sellers': emptySellers });
      const { router } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
    },
  );

  it('lets a logged-in user into /account/*, where pages still to come are a 404', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    mockApi({ '/api/config': configWithAuth });
    const { router } = renderRoute('/account/unknown');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/unknown');
  });

  it.each(['/session/login', '/session/signup'])(
    'sends a logged-in user from %s to /',
    async (path) => {
      amplify.fetchAuthSession.mockResolvedValue(signedIn);
      mockApi({ '/api/config': configWithAuth, '/api/users/sellers': emptySellers });
      const { router } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
    },
  );
});

describe('account menu and logout', () => {
  it('shows "logged in as @nick" and logs out everywhere only after confirmation', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    const fetchMock = mockApi({
      '/api/config': configWithAuth,
      '/api/users/sellers': emptySellers,
      '/api/session/logout': () => jsonResponse({ data: { userId: 'u', revokedAt: 'now' } }),
    });
    const { router } = renderRoute('/legal/terms');
    const account = await screen.findByRole('button', { name: 'Account menu' });

    await userEvent.click(account);
    let menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Logged in as')).toBeTruthy();
    expect(within(menu).getByText('@ana')).toBeTruthy();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    let dialog = await screen.findByRole('dialog', { name: 'Log out?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(amplify.signOut).not.toHaveBeenCalled();

    await userEvent.click(account);
    menu = await screen.findByRole('menu');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    dialog = await screen.findByRole('dialog', { name: 'Log out?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log out' }));

    expect(amplify.signOut).toHaveBeenCalledWith({ global: true });
    // The server revokes every session of the user first (its access tokens stop working).
    const logout = fetchMock.mock.calls.find(([input]) =>
      String(input).endsWith('/session/logout'),
    );
    expect(new URL(String(logout?.[0]), 'http://localhost').pathname).toBe('/api/session/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await within(topBar()).findByRole('button', { name: 'Login' })).toBeTruthy();
  });
});

describe('session', () => {
  it('restores a stored session on load (a reload while logged in)', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    mockApi({ '/api/config': configWithAuth });
    renderRoute('/legal/terms');
    expect(await within(topBar()).findByRole('button', { name: 'Account menu' })).toBeTruthy();
    expect(amplify.fetchAuthSession).toHaveBeenCalled();
  });

  it('leaves Amplify unloaded for a visitor without a stored session', async () => {
    window.localStorage.clear();
    const amplifyCore = await import('aws-amplify');
    vi.mocked(amplifyCore.Amplify.configure).mockClear();
    mockApi({ '/api/config': configWithAuth });
    renderRoute('/legal/terms');
    expect(await within(topBar()).findByRole('button', { name: 'Login' })).toBeTruthy();
    // Settled as a guest (the session is known), and nothing asked Amplify anything.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Account menu' })).toBeNull());
    expect(amplify.fetchAuthSession).not.toHaveBeenCalled();
    expect(amplifyCore.Amplify.configure).not.toHaveBeenCalled();
  });

  it('looks for the access token Amplify stores under the last user of the client', () => {
    const pool = { userPoolClientId: 'client' };
    window.localStorage.clear();
    expect(hasStoredSession(pool)).toBe(false);
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.LastAuthUser', 'user-9');
    expect(hasStoredSession(pool)).toBe(false);
    window.localStorage.setItem('CognitoIdentityServiceProvider.client.user-9.accessToken', 'x');
    expect(hasStoredSession(pool)).toBe(true);
    expect(hasStoredSession({ userPoolClientId: 'other-client' })).toBe(false);
  });

  it('sends the access token and ends the session with a toast when the API answers 401', async () => {
    amplify.fetchAuthSession.mockResolvedValue(signedIn);
    let authorization: string | null = null;
    mockApi({
      '/api/config': configWithAuth,
      '/api/users/sellers': (_url, init) => {
        authorization = new Headers(init?.headers).get('Authorization');
        return jsonResponse(
          { error: { code: 'unauthenticated', message: 'Unauthorized', requestId: 'r' } },
          401,
        );
      },
    });
    const { router } = renderRoute('/legal/terms');
    await screen.findByRole('button', { name: 'Account menu' });
    await router.navigate('/sellers');

    expect(await screen.findByText('Your session has expired')).toBeTruthy();
    expect(authorization).toBe('Bearer access-token');
    expect(await within(topBar()).findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(amplify.signOut).toHaveBeenCalled();
  });

  it('ends the session when the token cannot be refreshed', async () => {
    amplify.fetchAuthSession.mockResolvedValueOnce(signedIn);
    amplify.fetchAuthSession.mockRejectedValue(
      namedError('NotAuthorizedException', 'Refresh Token has expired'),
    );
    mockApi({ '/api/config': configWithAuth, '/api/users/sellers': emptySellers });
    const { router } = renderRoute('/legal/terms');
    await screen.findByRole('button', { name: 'Account menu' });
    await router.navigate('/sellers');
    expect(await screen.findByText('Your session has expired')).toBeTruthy();
  });
});
