import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configWithAuthFixture } from '../../test/fixtures';
import { jsonResponse, mockApi, renderRoute } from '../../test/utils';
import { registerBody, signupFormSchema } from './schemas';
import { storeSignedInSession } from '../../test/profileFixtures';

const amplify = vi.hoisted(() => ({
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  fetchAuthSession: vi.fn(),
  signOut: vi.fn(),
}));
vi.mock('aws-amplify/auth', () => amplify);
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const configWithAuth = () => jsonResponse({ data: configWithAuthFixture(null) });
const available = (value: boolean) => () => jsonResponse({ data: { available: value } });

beforeEach(() => {
  for (const fn of Object.values(amplify)) fn.mockReset();
  // Amplify holds tokens in this browser; each test's fetchAuthSession says whether they are valid.
  storeSignedInSession();
  amplify.fetchAuthSession.mockResolvedValue({ tokens: undefined });
});

const valid = {
  user_option: 'individual' as const,
  nick: 'ana',
  email: 'Ana@Example.com',
  phone: '+44 (7700) 900-123',
  name: 'Ana',
  surname: 'Lima',
  entity_name: '',
  terms: true,
};

describe('sign-up rules', () => {
  it('accepts an individual and builds the register body (phone stripped, e-mail lower-cased)', () => {
    const parsed = signupFormSchema.parse(valid);
    expect(registerBody(parsed)).toEqual({
      user: {
        user_option: 'individual',
        nick: 'ana',
        email: 'ana@example.com',
        phone: '+447700900123',
        name: 'Ana',
        surname: 'Lima',
        terms: true,
      },
    });
  });

  it('asks companies for the company name only', () => {
    const parsed = signupFormSchema.parse({
      ...valid,
      user_option: 'company',
      name: '',
      surname: '',
      entity_name: 'Lumen Records',
    });
    expect(registerBody(parsed).user).toMatchObject({ entity_name: 'Lumen Records' });
    expect(registerBody(parsed).user).not.toHaveProperty('name');
  });

  it.each([
    [{ nick: 'ab' }, 'nick'],
    [{ nick: 'ana_lima' }, 'nick'],
    [{ email: 'ana@' }, 'email'],
    [{ phone: '12' }, 'phone'],
    [{ terms: false }, 'terms'],
    [{ surname: '' }, 'surname'],
    [{ user_option: 'company', entity_name: '' }, 'entity_name'],
  ])('refuses %o (%s)', (change, field) => {
    const result = signupFormSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });
});

describe('sign-up page', () => {
  it('validates the fields and checks availability as the user types', async () => {
    const fetchMock = mockApi({
      '/api/config': configWithAuth,
      '/api/users/check-nickname/ana': available(false),
      '/api/users/check-nickname/ana2': available(true),
    });
    renderRoute('/session/signup');
    const main = screen.getByRole('main');
    // The page is a lazy module: it appears once its chunk has loaded.
    expect(
      await within(main).findByRole('heading', { level: 1, name: 'Create your account' }),
    ).toBeTruthy();

    const nick = within(main).getByRole('textbox', { name: /Username/ });
    await userEvent.type(nick, 'AB');
    expect(nick).toHaveProperty('value', 'ab');
    await userEvent.tab();
    expect(await within(main).findByText('Use 3 to 64 lowercase letters or digits.')).toBeTruthy();

    await userEvent.clear(nick);
    await userEvent.type(nick, 'ana');
    expect(await within(main).findByText('Already taken')).toBeTruthy();
    await userEvent.type(nick, '2');
    expect(await within(main).findByText('Available')).toBeTruthy();
    const checked = fetchMock.mock.calls.map(
      ([input]) => new URL(String(input), 'http://x').pathname,
    );
    expect(checked).not.toContain('/api/users/check-nickname/ab');

    await userEvent.click(within(main).getByRole('button', { name: 'Create account' }));
    expect(await within(main).findByText('Please accept the terms to continue.')).toBeTruthy();
    // Name, surname, e-mail and phone are still empty.
    expect(within(main).getAllByText('This field is required.')).toHaveLength(4);
    await userEvent.type(within(main).getByRole('textbox', { name: /E-mail/ }), 'ana@');
    await userEvent.tab();
    expect(await within(main).findByText('Enter a valid e-mail address.')).toBeTruthy();
  });

  it('registers, then takes the e-mail code and the phone code, then logs in', async () => {
    let body: unknown;
    mockApi({
      '/api/config': configWithAuth,
      '/api/users/check-nickname/lumen': available(true),
      '/api/users/check-email/ops@lumen.example': available(true),
      '/api/users/check-mobile/+447700900123': available(true),
      '/api/users/register': (_url, init) => {
        body = JSON.parse(String(init?.body));
        return jsonResponse({ data: { id: 'u1', nick: 'lumen' } }, 201);
      },
      '/api/users/sellers': () => jsonResponse({ data: { items: [], nextCursor: null } }),
    });
    amplify.signIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: {
        signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
        additionalInfo: { step: 'email', destination: 'o***@lumen.example' },
      },
    });
    amplify.confirmSignIn
      .mockResolvedValueOnce({
        isSignedIn: false,
        nextStep: {
          signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
          additionalInfo: { step: 'phone', destination: '+44*****123' },
        },
      })
      .mockResolvedValueOnce({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    const { router } = renderRoute('/session/signup');
    const main = screen.getByRole('main');

    await userEvent.click(within(main).getByRole('button', { name: /Company/ }));
    await userEvent.type(within(main).getByRole('textbox', { name: /Company name/ }), 'Lumen');
    await userEvent.type(within(main).getByRole('textbox', { name: /Username/ }), 'lumen');
    await userEvent.type(
      within(main).getByRole('textbox', { name: /E-mail/ }),
      'Ops@Lumen.example',
    );
    await userEvent.type(
      within(main).getByRole('textbox', { name: /Mobile phone/ }),
      '+44 7700 900-123',
    );
    await userEvent.click(within(main).getByRole('checkbox', { name: /I accept the/ }));
    await userEvent.click(within(main).getByRole('button', { name: 'Create account' }));

    expect(await within(main).findByRole('heading', { name: 'Check your e-mail' })).toBeTruthy();
    expect(body).toEqual({
      user: {
        user_option: 'company',
        nick: 'lumen',
        email: 'ops@lumen.example',
        phone: '+447700900123',
        entity_name: 'Lumen',
        terms: true,
      },
    });
    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'ops@lumen.example',
      options: { authFlowType: 'CUSTOM_WITHOUT_SRP' },
    });

    amplify.fetchAuthSession.mockResolvedValue({
      tokens: {
        accessToken: {
          toString: () => 'a',
          payload: { sub: '0f1e-uuid', username: 'u1', email: 'ops@lumen.example' },
        },
      },
    });
    const emailGroup = await screen.findByRole('group', { name: 'E-mail code' });
    await userEvent.click(within(emailGroup).getByRole('textbox', { name: 'Digit 1 of 4' }));
    await userEvent.keyboard('1234');
    const phoneGroup = await screen.findByRole('group', { name: 'Phone code' });
    await userEvent.click(within(phoneGroup).getByRole('textbox', { name: 'Digit 1 of 4' }));
    await userEvent.keyboard('5678');

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toBe('?loggedForFirstTime=true');
  });

  it('shows the taken fields of a 409 under the fields', async () => {
    mockApi({
      '/api/config': configWithAuth,
      '/api/users/register': () =>
        jsonResponse(
          {
            error: {
              code: 'users.errors.taken',
              message: 'Taken',
              fields: { email: 'forms.validation.taken.email' },
              requestId: 'r',
            },
          },
          409,
        ),
    });
    renderRoute('/session/signup');
    const main = screen.getByRole('main');
    await userEvent.type(within(main).getByRole('textbox', { name: /^Name/ }), 'Ana');
    await userEvent.type(within(main).getByRole('textbox', { name: /Surname/ }), 'Lima');
    await userEvent.type(within(main).getByRole('textbox', { name: /Username/ }), 'ana');
    await userEvent.type(within(main).getByRole('textbox', { name: /E-mail/ }), 'ana@example.com');
    await userEvent.type(
      within(main).getByRole('textbox', { name: /Mobile phone/ }),
      '+447700900123',
    );
    await userEvent.click(within(main).getByRole('checkbox', { name: /I accept the/ }));
    await userEvent.click(within(main).getByRole('button', { name: 'Create account' }));
    expect(await within(main).findByText('This e-mail is already registered.')).toBeTruthy();
    expect(amplify.signIn).not.toHaveBeenCalled();
  });
});
