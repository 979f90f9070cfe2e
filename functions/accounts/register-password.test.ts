import type { PreAuthenticationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { registerBodySchema } from '../../shared/schemas/accounts';
import { fieldErrors } from '../core/http';
import { fakeAccountsRepo, fakeIdentity } from './accounts.fake';
import { LoginRefused, preAuthentication } from './login';
import { fingerprintOf, register, type RegisterDeps } from './register';

/** Sign-up and login with the passwordLogin switch (off in this deployment). */
const NOW = new Date('2026-11-22T10:00:00.000Z');
const PASSWORD = 'my secret 1';

const person = (over: Record<string, unknown> = {}) => ({
  user_option: 'individual' as const,
  nick: 'marta',
  email: 'marta@example.com',
  phone: '+34600123456',
  name: 'Marta',
  surname: 'Ruiz',
  terms: true as const,
  ...over,
});

function setup(passwordLogin: boolean, failPasswordWith?: Error) {
  const fake = fakeAccountsRepo();
  const idp = fakeIdentity(failPasswordWith === undefined ? {} : { failPasswordWith });
  const deps: RegisterDeps = {
    repo: fake.repo,
    identity: idp.identity,
    adminEmails: [],
    newId: () => '01JD0000000000000000000001',
    passwordLogin,
  };
  return { fake, idp, deps };
}

describe('sign-up password (spec 001 §5: 6 to 32 characters)', () => {
  const parse = (password: unknown) => {
    const result = registerBodySchema.safeParse({ user: person({ password }) });
    return result.success ? result.data.user.password : fieldErrors(result.error);
  };

  it.each<[unknown, unknown]>([
    ['123456', '123456'],
    [' 12345', ' 12345'],
    ['x'.repeat(32), 'x'.repeat(32)],
    [undefined, undefined],
    ['12345', { 'user.password': 'forms.validation.password' }],
    ['x'.repeat(33), { 'user.password': 'forms.validation.password' }],
    ['', { 'user.password': 'forms.validation.required' }],
    [123456, { 'user.password': 'forms.validation.required' }],
  ])('%j → %j', (password, expected) => {
    expect(parse(password)).toEqual(expected);
  });
});

describe('register with the passwordLogin switch', () => {
  it('on: sets the password on the Cognito user and never stores it', async () => {
    const { fake, idp, deps } = setup(true);
    const { result } = await register(
      deps,
      { user: person({ password: PASSWORD }), idempotencyKey: 'key-00000001' },
      NOW,
    );
    expect(idp.passwords.get(result.id)).toBe(PASSWORD);
    const stored = JSON.stringify({
      accounts: [...fake.accounts.values()],
      profiles: [...fake.profiles.values()],
      idempotency: [...fake.idempotency.values()],
    });
    expect(stored).not.toContain(PASSWORD);
  });

  it('on: requires the password (400 on user.password)', async () => {
    const { fake, deps } = setup(true);
    await expect(
      register(deps, { user: person(), idempotencyKey: undefined }, NOW),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      fields: { 'user.password': 'forms.validation.required' },
    });
    expect(fake.accounts.size).toBe(0);
  });

  it('off: refuses a password (400 on user.password) and writes nothing', async () => {
    const { fake, idp, deps } = setup(false);
    await expect(
      register(deps, { user: person({ password: PASSWORD }), idempotencyKey: undefined }, NOW),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
      fields: { 'user.password': 'forms.validation.invalid' },
    });
    expect(fake.accounts.size).toBe(0);
    expect(idp.users.size).toBe(0);
  });

  it('off by default (deps without the switch): a body without password signs up as before', async () => {
    const { deps } = setup(false);
    const { passwordLogin: _off, ...withoutSwitch } = deps;
    const { created } = await register(
      withoutSwitch,
      { user: person(), idempotencyKey: undefined },
      NOW,
    );
    expect(created).toBe(true);
  });

  it('on: a failing AdminSetUserPassword removes the account again (503)', async () => {
    const { fake, deps } = setup(true, new Error('InvalidPasswordException'));
    await expect(
      register(deps, { user: person({ password: PASSWORD }), idempotencyKey: 'key-00000001' }, NOW),
    ).rejects.toMatchObject({ code: 'unavailable', status: 503 });
    expect(fake.accounts.size).toBe(0);
    expect(fake.guards.size).toBe(0);
    expect(fake.idempotency.size).toBe(0);
  });

  it('fingerprints a hash of the password: no plain password, another password another body', () => {
    const base = fingerprintOf(person());
    const withPassword = fingerprintOf(person({ password: PASSWORD }));
    expect(withPassword).not.toBe(base);
    expect(fingerprintOf(person({ password: 'other secret' }))).not.toBe(withPassword);
    expect(withPassword).not.toContain(PASSWORD);
  });

  it('on: a replay with another password is 409 idempotency.key_reused', async () => {
    const { deps } = setup(true);
    await register(
      deps,
      { user: person({ password: PASSWORD }), idempotencyKey: 'key-00000001' },
      NOW,
    );
    await expect(
      register(
        deps,
        { user: person({ password: 'other secret' }), idempotencyKey: 'key-00000001' },
        NOW,
      ),
    ).rejects.toMatchObject({ code: 'idempotency.key_reused' });
  });
});

describe('pre-authentication trigger (password login)', () => {
  const event = (userName: string, userNotFound = false) =>
    ({
      userName,
      request: { userAttributes: {}, userNotFound },
      response: {},
    }) as unknown as PreAuthenticationTriggerEvent;

  it.each<[string, boolean, boolean, 'ok' | 'login.errors.403']>([
    ['a blocked account, switch on', true, true, 'login.errors.403'],
    ['an active account, switch on', true, false, 'ok'],
    ['a blocked account, switch off (the pin triggers decide)', false, true, 'ok'],
  ])('%s', async (_label, passwordLogin, blocked, expected) => {
    const { fake } = setup(passwordLogin);
    fake.accounts.set('01JD0000000000000000000001', {
      id: '01JD0000000000000000000001',
      nick: 'marta',
      email: 'marta@example.com',
      phone: '+34600123456',
      user_option: 'individual',
      email_verified: true,
      phone_verified: true,
      blocked,
      is_admin: false,
      created_at: NOW.toISOString(),
    });
    const outcome = await preAuthentication(
      { repo: fake.repo, passwordLogin },
      event('01jd0000000000000000000001'),
    ).then(
      () => 'ok',
      (error: unknown) => (error instanceof LoginRefused ? error.code : 'other'),
    );
    expect(outcome).toBe(expected);
  });

  it('lets an unknown user through (Cognito then answers "Incorrect username or password.")', async () => {
    const { fake } = setup(true);
    await expect(
      preAuthentication({ repo: fake.repo, passwordLogin: true }, event('nobody', true)),
    ).resolves.toBeDefined();
  });
});
