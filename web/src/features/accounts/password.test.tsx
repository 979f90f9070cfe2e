import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configFixture, configWithAuthFixture } from '../../test/fixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { storeSignedInSession } from '../../test/profileFixtures';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const TOKEN = 'A'.repeat(43);
const switchedOn = () =>
  jsonResponse({
    data: { ...configWithAuthFixture(), switches: configFixture({ passwordLogin: true }).switches },
  });

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
  amplify.signOut.mockResolvedValue(undefined);
});

describe('password pages while passwordLogin is off (this deployment)', () => {
  it.each(['/session/forgot', `/password/reset/${TOKEN}`, '/password/reset'])(
    '%s shows the 404 page',
    async (path) => {
      mockApi({ '/api/config': () => jsonResponse({ data: configWithAuthFixture() }) });
      renderRoute(path);
      expect(await screen.findByText('This page could not be found')).toBeTruthy();
    },
  );

  it('the login form has no password and no forgot link', async () => {
    mockApi({ '/api/config': () => jsonResponse({ data: configWithAuthFixture() }) });
    renderRoute('/session/login');
    await screen.findByRole('textbox', { name: 'E-mail' });
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).toBeNull();
  });

  it('sign-up has no password fields', async () => {
    mockApi({ '/api/config': () => jsonResponse({ data: configWithAuthFixture() }) });
    renderRoute('/session/signup');
    await screen.findByRole('textbox', { name: /E-mail/ });
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });
});

describe('/session/forgot (switch on)', () => {
  it('sends the e-mail and shows the neutral confirmation', async () => {
    const fetchMock = mockApi({
      '/api/config': switchedOn,
      '/api/password/email/ana%40example.com': () => jsonResponse({ data: { requested: true } }),
    });
    renderRoute('/session/forgot');
    const email = await screen.findByRole('textbox', { name: 'E-mail' });
    const submit = screen.getByRole('button', { name: 'Send the link' });
    expect(submit).toHaveProperty('disabled', true);
    await userEvent.type(email, 'Ana@Example.com');
    await userEvent.click(submit);
    expect((await screen.findByRole('status')).textContent).toBe(
      'If an account exists for this e-mail, we sent a link to it. The link works once, for one hour.',
    );
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/password/email/'));
    expect(call?.[1]?.method).toBe('POST');
  });

  it('shows the API error (429) under the form', async () => {
    mockApi({
      '/api/config': switchedOn,
      '/api/password/email/ana%40example.com': () =>
        jsonResponse({ error: { code: 'rate_limited', message: 'x', requestId: 'r' } }, 429),
    });
    renderRoute('/session/forgot');
    await userEvent.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});

describe('/password/reset/:token? (switch on)', () => {
  async function fill(password: string, repeat: string) {
    await userEvent.type(await screen.findByLabelText(/^New password/), password);
    await userEvent.type(screen.getByLabelText(/^Repeat the new password/), repeat);
  }

  it('without a token: the error state with a link to /session/forgot', async () => {
    mockApi({ '/api/config': switchedOn });
    renderRoute('/password/reset');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This page needs the link from the password reset e-mail.',
    );
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/session/forgot',
    );
  });

  it('checks 6–32 characters and identical entries', async () => {
    mockApi({ '/api/config': switchedOn });
    renderRoute(`/password/reset/${TOKEN}`);
    await fill('12345', '12346');
    expect(await screen.findByText('Use 6 to 32 characters.')).toBeTruthy();
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save the password' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('resets, then goes to /session/login with a success toast', async () => {
    const fetchMock = mockApi({
      '/api/config': switchedOn,
      '/api/password/reset': () => jsonResponse({ data: { reset: true } }),
    });
    const { router } = renderRoute(`/password/reset/${TOKEN}`);
    await fill('new-secret', 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save the password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/session/login'));
    expect(await screen.findByText('Your password was changed. Log in with it.')).toBeTruthy();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/password/reset'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ password: 'new-secret', token: TOKEN });
  });

  it('an invalid or used token shows its error and the new-link button', async () => {
    mockApi({
      '/api/config': switchedOn,
      '/api/password/reset': () =>
        jsonResponse(
          {
            error: { code: 'password.errors.token_invalid', message: 'x', requestId: 'r' },
          },
          400,
        ),
    });
    renderRoute(`/password/reset/${TOKEN}`);
    await fill('new-secret', 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save the password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This password reset link is invalid, has expired or was already used.',
    );
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toBeTruthy();
  });
});

describe('sign-up with passwordLogin on', () => {
  it('asks for the password twice and sends it with the sign-up', async () => {
    const fetchMock = mockApi({
      '/api/config': switchedOn,
      '/api/users/register': () => jsonResponse({ data: { id: 'user-1', nick: 'ana' } }, 201),
    });
    amplify.signIn.mockResolvedValue({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    renderRoute('/session/signup');
    const password = await screen.findByLabelText(/^Password/);
    const repeat = screen.getByLabelText(/^Repeat the password/);
    await userEvent.type(screen.getByRole('textbox', { name: /Username/ }), 'ana');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ana@example.com');
    await userEvent.type(screen.getByRole('textbox', { name: /Mobile phone/ }), '+447700900123');
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'Ana');
    await userEvent.type(screen.getByRole('textbox', { name: /Surname/ }), 'Lee');
    await userEvent.type(password, 'secret-1');
    await userEvent.type(repeat, 'secret-2');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The two passwords are not the same.')).toBeTruthy();
    await userEvent.clear(repeat);
    await userEvent.type(repeat, 'secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(amplify.signIn).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/users/register'));
    expect(JSON.parse(String(call?.[1]?.body)).user.password).toBe('secret-1');
    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'ana@example.com',
      password: 'secret-1',
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
  });
});
