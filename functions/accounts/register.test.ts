import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/errors';
import { fieldErrors } from '../core/http';
import {
  checkMobilePathSchema,
  normalisePhone,
  registerBodySchema,
  type RegisterUser,
} from '../../shared/schemas/accounts';
import { fakeAccountsRepo, fakeIdentity } from './accounts.fake';
import { checkAvailability, fingerprintOf, register, type RegisterDeps } from './register';

const NOW = new Date('2026-11-22T10:00:00.000Z');

function person(over: Partial<Extract<RegisterUser, { user_option: 'individual' }>> = {}) {
  return {
    user_option: 'individual' as const,
    nick: 'marta',
    email: 'marta@example.com',
    phone: '+34600123456',
    name: 'Marta',
    surname: 'Ruiz',
    terms: true as const,
    ...over,
  };
}

function setup(options: { failWith?: Error; adminEmails?: string[] } = {}) {
  const fake = fakeAccountsRepo();
  const idp = fakeIdentity(options.failWith === undefined ? {} : { failWith: options.failWith });
  let counter = 0;
  const deps: RegisterDeps = {
    repo: fake.repo,
    identity: idp.identity,
    adminEmails: options.adminEmails ?? [],
    newId: () => `01JUSER${String((counter += 1)).padStart(19, '0')}`,
  };
  return { fake, idp, deps };
}

describe('sign-up validation (spec 001 §5)', () => {
  const parse = (user: Record<string, unknown>) => {
    const result = registerBodySchema.safeParse({ user });
    return result.success ? result.data.user : fieldErrors(result.error);
  };

  it('lower-cases nick and e-mail and strips the phone', () => {
    expect(
      parse({
        ...person(),
        nick: ' Marta ',
        email: 'Marta@Example.COM',
        phone: '+34 (600) 12-34-56 #',
      }),
    ).toMatchObject({ nick: 'marta', email: 'marta@example.com', phone: '+34600123456' });
  });

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['a short nick', { nick: 'ab' }, { 'user.nick': 'forms.validation.too_small' }],
    ['a long nick', { nick: 'a'.repeat(65) }, { 'user.nick': 'forms.validation.too_big' }],
    ['a nick with symbols', { nick: 'mar_ta' }, { 'user.nick': 'forms.validation.invalid' }],
    ['a bad e-mail', { email: 'marta@' }, { 'user.email': 'forms.validation.email' }],
    ['a phone without +', { phone: '600123456' }, { 'user.phone': 'forms.validation.phone' }],
    ['a short phone', { phone: '+3460012' }, { 'user.phone': 'forms.validation.phone' }],
    ['a long phone', { phone: '+3460012345678901' }, { 'user.phone': 'forms.validation.phone' }],
    ['no terms', { terms: false }, { 'user.terms': 'forms.validation.terms' }],
    ['no surname', { surname: undefined }, { 'user.surname': 'forms.validation.required' }],
    ['another type', { user_option: 'robot' }, { 'user.user_option': 'forms.validation.enum' }],
  ])('refuses %s', (_name, over, fields) => {
    expect(parse({ ...person(), ...over })).toEqual(fields);
  });

  it('asks companies for entity_name', () => {
    expect(parse({ ...person(), user_option: 'company' })).toEqual({
      'user.entity_name': 'forms.validation.required',
    });
    expect(parse({ ...person(), user_option: 'company', entity_name: 'Nordlicht' })).toMatchObject({
      user_option: 'company',
      entity_name: 'Nordlicht',
    });
  });

  it.each([
    ['+1 (555) 123-4567', '+15551234567'],
    ['+44 20 7946 0958 x', '+442079460958'],
    ['+34-600-123-456#', '+34600123456'],
  ])('normalises the phone %s to %s', (raw, e164) => {
    expect(normalisePhone(raw)).toBe(e164);
    expect(checkMobilePathSchema.parse({ value: raw }).value).toBe(e164);
  });
});

describe('register', () => {
  it('writes the account and profile, then the Cognito user', async () => {
    const { fake, idp, deps } = setup();
    const { created, result } = await register(
      deps,
      { user: person(), idempotencyKey: undefined },
      NOW,
    );
    expect(created).toBe(true);
    expect(result).toEqual({
      id: '01JUSER0000000000000000001',
      nick: 'marta',
      email: 'marta@example.com',
      phone: '+34600123456',
      user_option: 'individual',
    });
    expect(fake.accounts.get(result.id)).toMatchObject({
      email_verified: false,
      phone_verified: false,
      blocked: false,
      is_admin: false,
    });
    expect(fake.profiles.get(result.id)).toMatchObject({
      pk: `USER#${result.id}`,
      sk: 'PROFILE',
      type: 'profile',
      nick: 'marta',
      name: 'Marta',
      surname: 'Ruiz',
      is_verified: false,
      is_seller: false,
    });
    expect(idp.users.get(result.id)).toEqual({
      email: 'marta@example.com',
      phone: '+34600123456',
      groups: [],
    });
  });

  it('names every taken field in the 409', async () => {
    const { deps } = setup();
    await register(deps, { user: person(), idempotencyKey: undefined }, NOW);
    const error = await register(
      deps,
      { user: person({ email: 'other@example.com' }), idempotencyKey: undefined },
      NOW,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(409);
    expect((error as DomainError).fields).toEqual({
      nick: 'forms.validation.taken.nick',
      phone: 'forms.validation.taken.phone',
    });
  });

  it('puts admin e-mails in the admin group', async () => {
    const { idp, deps } = setup({ adminEmails: ['boss@example.com'] });
    const { result } = await register(
      deps,
      { user: person({ email: 'boss@example.com' }), idempotencyKey: undefined },
      NOW,
    );
    expect(idp.users.get(result.id)?.groups).toEqual(['admin']);
  });

  it('removes the table items when Cognito fails, so the same sign-up can succeed later', async () => {
    const failing = setup({ failWith: new Error('cognito down') });
    await expect(
      register(failing.deps, { user: person(), idempotencyKey: 'key-00000001' }, NOW),
    ).rejects.toMatchObject({ code: 'unavailable', status: 503 });
    expect(failing.fake.accounts.size).toBe(0);
    expect(failing.fake.guards.size).toBe(0);
    expect(failing.fake.profiles.size).toBe(0);
    expect(failing.fake.idempotency.size).toBe(0);
  });

  it('answers a retry with the same Idempotency-Key with the first result', async () => {
    const { fake, idp, deps } = setup();
    const first = await register(deps, { user: person(), idempotencyKey: 'key-00000001' }, NOW);
    const again = await register(deps, { user: person(), idempotencyKey: 'key-00000001' }, NOW);
    expect(again).toEqual({ created: false, result: first.result });
    expect(fake.accounts.size).toBe(1);
    expect(idp.users.size).toBe(1);
    await expect(
      register(deps, { user: person({ name: 'Other' }), idempotencyKey: 'key-00000001' }, NOW),
    ).rejects.toMatchObject({ code: 'idempotency.key_reused', status: 409 });
  });

  it('fingerprints the body independently of key order', () => {
    const a = person();
    const b = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
  });

  it('checks availability through the guards', async () => {
    const { fake, deps } = setup();
    await register(deps, { user: person(), idempotencyKey: undefined }, NOW);
    const repo = fake.repo;
    expect(await checkAvailability({ repo }, 'nick', 'marta')).toEqual({ available: false });
    expect(await checkAvailability({ repo }, 'nick', 'marta2')).toEqual({ available: true });
    expect(await checkAvailability({ repo }, 'email', 'marta@example.com')).toEqual({
      available: false,
    });
    expect(await checkAvailability({ repo }, 'phone', '+34600123457')).toEqual({ available: true });
  });
});
