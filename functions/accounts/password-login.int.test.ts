import {
  CognitoIdentityProviderClient,
  GetUserCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCognito, type CognitoEndpoint } from '../../infra/local/cognito/server';
import { TWIN_CREDENTIALS } from '../../infra/local/support';
import { gatewayFetch, useTwinEnv } from '../../infra/local/test/twin-context';
import { dynamoDocumentClient } from '../core/clients';
import { ENV, readEnv } from '../core/env';
import { httpEvent, lambdaContext } from '../core/testing/events';
import { createSessionsStore } from './sessions.repo';

/**
 * Password login end to end with the passwordLogin switch ON, while the twin (and every other
 * test) keeps it off: this worker turns FEATURE_PASSWORD_LOGIN on in its own process.env, starts
 * its own local Cognito endpoint whose client allows USER_PASSWORD_AUTH (running the real
 * triggers here, against the twin's DynamoDB Local), points COGNITO_ENDPOINT at it, and invokes
 * the real handler modules in-process. Through the twin's gateway the routes stay 404.
 */
const RUN = `pw${Date.now().toString(36)}`;
const saved: Record<string, string | undefined> = {};
let cognito: CognitoEndpoint;
let sdk: CognitoIdentityProviderClient;

type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
async function handlerOf(module: string): Promise<Handler> {
  return ((await import(`./handlers/${module}.ts`)) as { handler: Handler }).handler;
}

async function invoke(
  module: string,
  method: string,
  rawPath: string,
  options: Parameters<typeof httpEvent>[2] = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const handler = await handlerOf(module);
  const result = await handler(httpEvent(method, rawPath, options), lambdaContext());
  return {
    status: result.statusCode ?? 0,
    json: JSON.parse(String(result.body ?? '{}')) as Record<string, unknown>,
  };
}

function setEnv(name: string, value: string): void {
  if (!(name in saved)) saved[name] = process.env[name];
  process.env[name] = value;
}

beforeAll(async () => {
  useTwinEnv();
  setEnv('FEATURE_PASSWORD_LOGIN', 'true');
  cognito = await startCognito({ passwordAuth: true, userPoolId: 'us-east-1_pwlocal' });
  setEnv(ENV.cognitoEndpoint, cognito.url);
  setEnv(ENV.userPoolId, cognito.userPoolId);
  setEnv(ENV.userPoolClientId, cognito.clientId);
  setEnv(ENV.webOrigin, 'https://market.example.com');
  sdk = new CognitoIdentityProviderClient({
    region: cognito.region,
    endpoint: cognito.url,
    credentials: TWIN_CREDENTIALS,
  });
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
  sdk?.destroy();
  await cognito?.stop();
});

let sequence = 0;
async function signUp(password: string) {
  sequence += 1;
  const unique = `${String(Date.now() % 100_000).padStart(5, '0')}${sequence}`;
  const user = {
    user_option: 'individual',
    nick: `${RUN}${unique}`,
    email: `${RUN}${unique}@example.com`,
    phone: `+3462${unique}${sequence}`.slice(0, 13),
    name: 'Pass',
    surname: 'Word',
    terms: true,
    password,
  };
  const answer = await invoke('register', 'POST', '/api/users/register', {
    body: JSON.stringify({ user }),
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return { ...user, id: (answer.json.data as { id: string }).id };
}

function passwordLogin(email: string, password: string) {
  return sdk.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: cognito.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
}

async function lastResetLink(to: string): Promise<string> {
  const response = await gatewayFetch('/dev/outbox.json');
  const { messages } = (await response.json()) as {
    messages: { kind: string; to?: string[]; at: string; text?: string | null }[];
  };
  const mine = messages
    .filter((message) => message.kind === 'email' && (message.to ?? []).includes(to))
    .sort((a, b) => (a.at < b.at ? 1 : -1));
  const match = /https:\/\/market\.example\.com\/password\/reset\/([\w-]{43})/.exec(
    mine[0]?.text ?? '',
  );
  if (match === null) throw new Error(`no reset link for ${to}`);
  return match[1] as string;
}

describe('the switch is off in the twin: the routes are 404 and sign-up refuses a password', () => {
  it.each([
    ['/api/password/email/someone%40example.com', undefined],
    ['/api/password/reset', JSON.stringify({ password: 'secret-1', token: 'x'.repeat(43) })],
    ['/api/password/reset', '{'],
  ])('POST %s → 404 not_found', async (path, body) => {
    const response = await gatewayFetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('POST /api/users/register with a password → 400 on user.password', async () => {
    const response = await gatewayFetch('/api/users/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: {
          user_option: 'individual',
          nick: `${RUN}off`,
          email: `${RUN}off@example.com`,
          phone: '+34629999001',
          name: 'Off',
          surname: 'Switch',
          terms: true,
          password: 'secret-1',
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'invalid_request', fields: { 'user.password': 'forms.validation.invalid' } },
    });
  });
});

describe('switch on: sign-up with a password, password login, forgot and reset', () => {
  it('signs up with a password (kept out of the table) and logs in with it by e-mail', async () => {
    const user = await signUp('first-secret');
    const result = await passwordLogin(user.email, 'first-secret');
    expect(result.AuthenticationResult?.AccessToken).toBeTruthy();
    expect(cognito.getUser(user.id)?.status).toBe('CONFIRMED');
    const env = readEnv();
    const account = await dynamoDocumentClient(env).send(
      new GetCommand({
        TableName: env.tableName,
        Key: { pk: `USER#${user.id}`, sk: 'ACCOUNT' },
      }),
    );
    expect(account.Item).toBeDefined();
    expect(JSON.stringify(account.Item)).not.toContain('first-secret');
    await expect(passwordLogin(user.email, 'wrong-secret')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('sign-up without a password → 400 user.password required', async () => {
    const answer = await invoke('register', 'POST', '/api/users/register', {
      body: JSON.stringify({
        user: {
          user_option: 'individual',
          nick: `${RUN}nopw`,
          email: `${RUN}nopw@example.com`,
          phone: '+34629999002',
          name: 'No',
          surname: 'Password',
          terms: true,
        },
      }),
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: { fields: { 'user.password': 'forms.validation.required' } },
    });
  });

  it('refuses a blocked account with login.errors.403 (pre-authentication trigger)', async () => {
    const user = await signUp('blocked-secret');
    const env = readEnv();
    const store = createSessionsStore({ doc: dynamoDocumentClient(env), tableName: env.tableName });
    await store.setBlocked(user.id, true, new Date().toISOString());
    await expect(passwordLogin(user.email, 'blocked-secret')).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: 'PreAuthentication failed with error login.errors.403.',
    });
  });

  it('forgot → e-mailed link → reset: one use, new password works, old sessions end', async () => {
    const user = await signUp('old-secret');
    const before = await passwordLogin(user.email, 'old-secret');
    const request = (email: string) =>
      invoke('request-password-reset', 'POST', `/api/password/email/${email}`, {
        pathParameters: { email },
      });
    const known = await request(user.email.toUpperCase());
    const unknown = await request(`${RUN}nobody@example.com`);
    expect(known).toEqual({ status: 200, json: { data: { requested: true } } });
    expect(unknown).toEqual(known);
    const token = await lastResetLink(user.email);

    const reset = (password: string) =>
      invoke('reset-password', 'POST', '/api/password/reset', {
        body: JSON.stringify({ password, token }),
      });
    // Two concurrent resets with one token: exactly one succeeds.
    const answers = await Promise.all([reset('new-secret-1'), reset('new-secret-2')]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400]);
    const failed = answers.find((answer) => answer.status === 400);
    expect(failed?.json).toMatchObject({ error: { code: 'password.errors.token_invalid' } });
    const winner = answers[0]?.status === 200 ? 'new-secret-1' : 'new-secret-2';

    await expect(passwordLogin(user.email, 'old-secret')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    expect(
      (await passwordLogin(user.email, winner)).AuthenticationResult?.AccessToken,
    ).toBeTruthy();
    // The earlier session was revoked (AdminUserGlobalSignOut through the sessions use case).
    await expect(
      sdk.send(new GetUserCommand({ AccessToken: before.AuthenticationResult?.AccessToken })),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    // Used: a third reset with the same token is refused.
    expect((await reset('another-secret')).json).toMatchObject({
      error: { code: 'password.errors.token_invalid' },
    });
  });

  it('limits reset requests to 5 an hour per e-mail, known or not (429)', async () => {
    const email = `${RUN}limit@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push(
        (
          await invoke('request-password-reset', 'POST', `/api/password/email/${email}`, {
            pathParameters: { email },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('validates the reset body (400 naming the fields)', async () => {
    const answer = await invoke('reset-password', 'POST', '/api/password/reset', {
      body: JSON.stringify({ password: '123', token: '' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: {
        code: 'invalid_request',
        fields: { password: 'forms.validation.password', token: 'forms.validation.required' },
      },
    });
  });
});
