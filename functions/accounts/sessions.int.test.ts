import {
  AdminEnableUserCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { twin, useTwinEnv } from '../../infra/local/test/twin-context';
import {
  call,
  clientId,
  cognitoTestClient,
  hasCognito,
  logIn,
  makeAdmin,
  newUser,
  signUp,
  startLogin,
  type TestUser,
} from './testing/session';

/**
 * Sessions through the local gateway with REAL tokens from the twin's local Cognito endpoint:
 * logout revokes, a blocked account gets 403 on every call and cannot log in, unblock restores
 * login, only admins block. The gateway's JWT authorizer does not see revocation or blocking:
 * these pass it and are refused by the per-call session check (functions/core/http.ts).
 */
const RUN = `s${Date.now().toString(36)}`;
let enabled = false;

beforeAll(() => {
  useTwinEnv();
  enabled = hasCognito();
});

/** The next sign-in must fall in a later second than the revocation (claims are in seconds). */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1050 - (Date.now() % 1000)));

async function loginRefusal(email: string): Promise<{ name?: string; message?: string }> {
  const refused = await startLogin(email).then(
    () => undefined,
    (error: unknown) => error as { name?: string; message?: string },
  );
  expect(refused).toBeDefined();
  return refused ?? {};
}

function refresh(refreshToken: string) {
  return cognitoTestClient().send(
    new InitiateAuthCommand({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: clientId(),
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  );
}

describe('logout', () => {
  it('refuses the same access token afterwards (401) and revokes the refresh token', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const before = await call('GET', '/api/session', { token: user.accessToken });
    expect(before).toMatchObject({
      status: 200,
      json: { data: { userId: user.id, admin: false } },
    });

    const out = await call<{ userId: string; revokedAt: string }>('POST', '/api/session/logout', {
      token: user.accessToken,
    });
    expect(out.status).toBe(200);
    expect(out.json.data.userId).toBe(user.id);

    const after = await call('GET', '/api/session', { token: user.accessToken });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('unauthenticated');
    // Logging out again with the revoked token: refused like any other call.
    expect((await call('POST', '/api/session/logout', { token: user.accessToken })).status).toBe(
      401,
    );
    await expect(refresh(user.refreshToken)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });

    // A new sign-in works again.
    await nextSecond();
    const again = await logIn(user);
    expect((await call('GET', '/api/session', { token: again.accessToken })).status).toBe(200);
  });
});

describe('admins block and unblock', () => {
  let admin: TestUser;

  beforeAll(async () => {
    if (!hasCognito()) return;
    const adminAccount = await signUp(RUN);
    await makeAdmin(adminAccount.id);
    admin = { ...adminAccount, ...(await logIn(adminAccount)) };
  });

  it('block: 403 login.errors.403 on every call with existing tokens, login refused; unblock restores login', async (context) => {
    if (!enabled) context.skip();
    const me = await call('GET', '/api/session', { token: admin.accessToken });
    expect(me).toMatchObject({ status: 200, json: { data: { admin: true } } });
    const user = await newUser(RUN);

    const blocked = await call('POST', `/api/admin/users/${user.id}/block`, {
      token: admin.accessToken,
    });
    expect(blocked).toMatchObject({
      status: 200,
      json: { data: { userId: user.id, blocked: true } },
    });
    // Blocking twice is harmless.
    expect(
      (await call('POST', `/api/admin/users/${user.id}/block`, { token: admin.accessToken }))
        .status,
    ).toBe(200);

    for (const [method, path] of [
      ['GET', '/api/session'],
      ['POST', '/api/session/logout'],
      ['POST', `/api/admin/users/${admin.id}/block`],
    ] as const) {
      const refused = await call(method, path, { token: user.accessToken });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.json.error.code).toBeOneOf(['login.errors.403', 'forbidden']);
    }
    const session = await call('GET', '/api/session', { token: user.accessToken });
    expect(session.json.error.code).toBe('login.errors.403');

    // Cognito: the user is disabled (its refresh tokens revoked).
    await expect(refresh(user.refreshToken)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    const disabled = await loginRefusal(user.email);
    expect(disabled.name).toBe('NotAuthorizedException');
    expect(disabled.message).toContain('disabled');
    // Even if the pool user were enabled, the login triggers refuse the blocked account.
    await cognitoTestClient().send(
      new AdminEnableUserCommand({ UserPoolId: twin().userPoolId, Username: user.id }),
    );
    const byTrigger = await loginRefusal(user.email);
    expect(byTrigger.name).toBe('UserLambdaValidationException');
    expect(byTrigger.message).toContain('login.errors.403');

    const unblocked = await call('POST', `/api/admin/users/${user.id}/unblock`, {
      token: admin.accessToken,
    });
    expect(unblocked).toMatchObject({
      status: 200,
      json: { data: { userId: user.id, blocked: false } },
    });
    // Old tokens stay revoked; a new login works.
    expect((await call('GET', '/api/session', { token: user.accessToken })).status).toBe(401);
    await nextSecond();
    const again = await logIn(user);
    expect((await call('GET', '/api/session', { token: again.accessToken })).status).toBe(200);
  });

  it('refuses an admin blocking themselves (409) and an unknown user (404)', async (context) => {
    if (!enabled) context.skip();
    const self = await call('POST', `/api/admin/users/${admin.id}/block`, {
      token: admin.accessToken,
    });
    expect(self.status).toBe(409);
    expect(self.json.error.code).toBe('admin.errors.self_block');
    const unknown = await call('POST', '/api/admin/users/01ARZ3NDEKTSV4RRFFQ69G5FAV/block', {
      token: admin.accessToken,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('users.errors.not_found');
    const invalid = await call('POST', '/api/admin/users/not-an-id/unblock', {
      token: admin.accessToken,
    });
    expect(invalid.status).toBe(400);
  });

  it('answers 403 forbidden to a non-admin, 401 to a guest', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const other = await signUp(RUN);
    const forbidden = await call('POST', `/api/admin/users/${other.id}/block`, {
      token: user.accessToken,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error.code).toBe('forbidden');
    expect((await call('POST', `/api/admin/users/${other.id}/block`)).status).toBe(401);
    expect((await call('GET', '/api/session')).status).toBe(401);
  });
});

describe('tokens the gateway refuses (401, the handler never runs)', () => {
  it('refuses tampered, other-audience, id and malformed tokens', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const [header, payload, signature] = user.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const forge = (changes: Record<string, unknown>) =>
      `${header}.${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${signature}`;
    // Expired tokens of the pool: infra/local/cognito/cognito.int.test.ts signs them with the
    // pool key (the gateway's authorizer module is the same); here only real tokens are at hand.
    for (const token of [
      forge({ username: 'SOMEONEELSE' }),
      forge({ client_id: 'someotherclient' }),
      forge({ exp: Math.floor(Date.now() / 1000) + 86_400 * 365 }),
      user.idToken,
      'not-a-token',
    ]) {
      const refused = await call('GET', '/api/session', { token });
      expect(refused.status).toBe(401);
    }
    expect((await call('GET', '/api/session', { token: user.accessToken })).status).toBe(200);
  });
});
