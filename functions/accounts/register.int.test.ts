import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayFetch, useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { newId } from '../core/ids';
import type { ErrorBody } from '../../shared/errors/registry';
import type { Availability, Registered } from '../../shared/schemas/accounts';
import { fakeIdentity } from './accounts.fake';
import { createAccountsRepo, type AccountsRepo } from './accounts.repo';
import { register, type RegisterDeps } from './register';

type Answer<T> = { data: T; error: ErrorBody['error'] };

/** Sign-up and availability checks through the gateway, against DynamoDB Local. */
const RUN = `r${Date.now().toString(36)}`;
let sequence = 0;

function unique() {
  sequence += 1;
  return {
    nick: `${RUN}n${sequence}`,
    email: `${RUN}.${sequence}@example.com`,
    phone: `+3460${String(Date.now() % 1_000_000).padStart(6, '0')}${String(sequence).padStart(3, '0')}`,
  };
}

function person(over: Record<string, unknown> = {}) {
  return {
    user_option: 'individual',
    ...unique(),
    name: 'Marta',
    surname: 'Ruiz',
    terms: true,
    ...over,
  };
}

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await gatewayFetch('/api/users/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer<Registered> };
}

async function available(kind: 'nickname' | 'email' | 'mobile', value: string) {
  const response = await gatewayFetch(`/api/users/check-${kind}/${encodeURIComponent(value)}`);
  return { status: response.status, json: (await response.json()) as Answer<Availability> };
}

let repo: AccountsRepo;
let hasCognito = false;

beforeAll(() => {
  const context = useTwinEnv();
  const env = readEnv();
  repo = createAccountsRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName });
  hasCognito = (context.env.COGNITO_ENDPOINT ?? '') !== '';
});

function tableDeps(): RegisterDeps {
  return { repo, identity: fakeIdentity().identity, adminEmails: [], newId };
}

describe('sign-up guards in DynamoDB Local (use case with the real repo, Cognito faked)', () => {
  it('20 concurrent sign-ups racing for one nick give exactly one account and 19 × 409 nick', async () => {
    const nick = `${RUN}race`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        register(
          tableDeps(),
          { user: { ...person(), nick } as never, idempotencyKey: undefined },
          new Date(),
        ),
      ),
    );
    const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as { status: number; fields: unknown }] : [],
    );
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const error of refused) {
      expect(error.status).toBe(409);
      expect(error.fields).toEqual({ nick: 'forms.validation.taken.nick' });
    }
    expect(await repo.isTaken('nick', nick)).toBe(true);
  });

  it('translates the cancellation reasons into the taken fields, all of them', async () => {
    const first = person();
    await register(tableDeps(), { user: first as never, idempotencyKey: undefined }, new Date());
    const again = await register(
      tableDeps(),
      {
        user: { ...person(), email: first.email, phone: first.phone } as never,
        idempotencyKey: undefined,
      },
      new Date(),
    ).catch((error: unknown) => error);
    expect(again).toMatchObject({
      status: 409,
      code: 'users.errors.taken',
      fields: { email: 'forms.validation.taken.email', phone: 'forms.validation.taken.phone' },
    });
  });

  it('compensates: when Cognito fails nothing remains, and the same sign-up succeeds later', async () => {
    const user = person();
    const failing: RegisterDeps = {
      ...tableDeps(),
      identity: fakeIdentity({ failWith: new Error('down') }).identity,
    };
    await expect(
      register(failing, { user: user as never, idempotencyKey: `${RUN}-compensate` }, new Date()),
    ).rejects.toMatchObject({ status: 503 });
    expect(await repo.isTaken('nick', user.nick as string)).toBe(false);
    expect(await repo.isTaken('email', user.email as string)).toBe(false);
    expect(await repo.isTaken('phone', user.phone as string)).toBe(false);
    expect(await repo.getIdempotency(`${RUN}-compensate`)).toBeUndefined();
    const later = await register(
      tableDeps(),
      { user: user as never, idempotencyKey: `${RUN}-compensate` },
      new Date(),
    );
    expect(later.created).toBe(true);
  });

  it('replays with the same Idempotency-Key', async () => {
    const user = person();
    const key = `${RUN}-replay`;
    const first = await register(
      tableDeps(),
      { user: user as never, idempotencyKey: key },
      new Date(),
    );
    const second = await register(
      tableDeps(),
      { user: user as never, idempotencyKey: key },
      new Date(),
    );
    expect(second).toEqual({ created: false, result: first.result });
  });
});

describe('availability checks through the gateway', () => {
  it('answers available until a sign-up takes the value, normalising the input', async () => {
    const user = person();
    expect((await available('nickname', user.nick as string)).json.data).toEqual({
      available: true,
    });
    await register(tableDeps(), { user: user as never, idempotencyKey: undefined }, new Date());
    const nick = await available('nickname', (user.nick as string).toUpperCase());
    expect(nick).toMatchObject({ status: 200, json: { data: { available: false } } });
    const email = await available('email', (user.email as string).toUpperCase());
    expect(email.json.data).toEqual({ available: false });
    const phone = user.phone as string;
    const spaced = `${phone.slice(0, 3)} (${phone.slice(3, 6)}) ${phone.slice(6, 9)}-${phone.slice(9)}`;
    expect((await available('mobile', spaced)).json.data).toEqual({ available: false });
    expect((await available('mobile', '+34 999 000 111')).json.data).toEqual({ available: true });
  });

  it.each([
    ['nickname', 'a_b', 'forms.validation.invalid'],
    ['nickname', 'ab', 'forms.validation.too_small'],
    ['email', 'not-an-email', 'forms.validation.email'],
    ['mobile', '600123', 'forms.validation.phone'],
  ] as const)('refuses check-%s/%s with 400 naming the field', async (kind, value, code) => {
    const answer = await available(kind, value);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'invalid_request', fields: { value: code } });
  });
});

describe('POST /api/users/register validation through the gateway', () => {
  it('answers 400 invalid_json for a broken body', async () => {
    const answer = await post('{"user":');
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('invalid_json');
  });

  it('answers 400 invalid_request naming every failing field', async () => {
    const answer = await post({
      user: { user_option: 'individual', nick: 'A!', email: 'x', phone: '12', terms: false },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({
      code: 'invalid_request',
      fields: {
        'user.nick': 'forms.validation.too_small',
        'user.email': 'forms.validation.email',
        'user.phone': 'forms.validation.phone',
        'user.terms': 'forms.validation.terms',
        'user.name': 'forms.validation.required',
        'user.surname': 'forms.validation.required',
      },
    });
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const answer = await post({ user: person() }, { 'idempotency-key': 'x' });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toEqual({ 'Idempotency-Key': 'forms.validation.invalid' });
  });
});

/** These need the twin's local Cognito endpoint; they skip only when the twin sets no COGNITO_ENDPOINT. */
describe('POST /api/users/register through the gateway and the local Cognito endpoint', () => {
  it('registers (201), then refuses duplicate nick, e-mail and phone with 409 naming the field', async (context) => {
    if (!hasCognito) context.skip();
    const user = person();
    const created = await post({ user });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({
      nick: user.nick,
      email: user.email,
      phone: user.phone,
      user_option: 'individual',
    });
    for (const field of ['nick', 'email', 'phone'] as const) {
      const duplicate = await post({ user: { ...person(), [field]: user[field] } });
      expect(duplicate.status).toBe(409);
      expect(duplicate.json.error).toMatchObject({
        code: 'users.errors.taken',
        fields: { [field]: `forms.validation.taken.${field}` },
      });
    }
  });

  it('registers a company and replays with the same Idempotency-Key', async (context) => {
    if (!hasCognito) context.skip();
    const user = { ...person({ user_option: 'company', entity_name: 'Nordlicht GmbH' }) };
    delete (user as Record<string, unknown>).name;
    delete (user as Record<string, unknown>).surname;
    const key = `${RUN}-gateway-replay`;
    const first = await post({ user }, { 'idempotency-key': key });
    const second = await post({ user }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json.data).toEqual(first.json.data);
  });

  it('20 concurrent sign-ups racing for one nick: one 201 and 19 × 409', async (context) => {
    if (!hasCognito) context.skip();
    const nick = `${RUN}gwrace`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post({ user: { ...person(), nick } })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(19);
    for (const answer of refused)
      expect(answer.json.error.fields).toEqual({ nick: 'forms.validation.taken.nick' });
  });
});
