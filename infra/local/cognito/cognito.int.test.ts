import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  GetTokensFromRefreshTokenCommand,
  GetUserCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, signIn, signOut } from 'aws-amplify/auth';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../../functions/routes';
import { startHttpGateway, type HttpGateway } from '../http-gateway';
import { TWIN_CREDENTIALS } from '../support';
import { cognitoAuthorizer } from './authorizer';
import { decodeJwtPayload } from './jwt';
import { FIXTURE_TRIGGER_MODULES, startCognito, type CognitoEndpoint } from './server';

/**
 * The local Cognito endpoint with the real clients: Amplify Auth v6 (the web's), the AWS SDK
 * (our functions'), aws-jwt-verify (the API's), and the local gateway's JWT authorizer. Fixture
 * triggers: e-mail pin 1234, then phone pin 5678.
 */

let cognito: CognitoEndpoint;
let sdk: CognitoIdentityProviderClient;
let clockOffsetMs = 0;
const USER = '01JD0000000000000000000001';
const EMAIL = 'ana@example.com';
const ADMIN = '01JD0000000000000000000002';
const ADMIN_EMAIL = 'root@example.com';

async function createUser(username: string, email: string): Promise<void> {
  await sdk.send(
    new AdminCreateUserCommand({
      UserPoolId: cognito.userPoolId,
      Username: username,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'phone_number', Value: '+34600000001' },
        { Name: 'phone_number_verified', Value: 'true' },
      ],
    }),
  );
}

async function amplifyLogin(email: string, pins = ['1234', '5678']): Promise<void> {
  const first = await signIn({ username: email, options: { authFlowType: 'CUSTOM_WITHOUT_SRP' } });
  expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE');
  let last = first;
  for (const pin of pins) last = await confirmSignIn({ challengeResponse: pin });
  expect(last.isSignedIn).toBe(true);
}

beforeAll(async () => {
  cognito = await startCognito({
    triggers: FIXTURE_TRIGGER_MODULES,
    now: () => Date.now() + clockOffsetMs,
  });
  sdk = new CognitoIdentityProviderClient({
    region: cognito.region,
    endpoint: cognito.url,
    credentials: TWIN_CREDENTIALS,
  });
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: cognito.userPoolId,
        userPoolClientId: cognito.clientId,
        userPoolEndpoint: cognito.url,
      },
    },
  });
  await createUser(USER, EMAIL);
  await createUser(ADMIN, ADMIN_EMAIL);
  cognito.addUserToGroup(ADMIN, 'admin');
});

afterEach(async () => {
  clockOffsetMs = 0;
  await signOut().catch(() => undefined);
});

afterAll(async () => {
  sdk?.destroy();
  await cognito?.stop();
});

describe('Amplify Auth v6 against the local endpoint', () => {
  it('signs in with two pins, refreshes, and a global sign-out revokes everything', async () => {
    const started = performance.now();
    await amplifyLogin(EMAIL);
    const loginMs = performance.now() - started;
    console.log(
      `[cognito] Amplify login round trip (3 calls, fixture triggers): ${loginMs.toFixed(1)} ms`,
    );

    const session = await fetchAuthSession();
    const access = session.tokens?.accessToken.toString() ?? '';
    const id = session.tokens?.idToken?.toString() ?? '';
    // Our id is the username; `sub` is the UUID Cognito generates.
    expect(session.tokens?.accessToken.payload.username).toBe(USER);
    expect(session.tokens?.accessToken.payload.sub).toMatch(/^[0-9a-f-]{36}$/);

    // aws-jwt-verify (the API's verifier) accepts both tokens with the pool's JWKS.
    const jwks = (await (
      await fetch(`${cognito.url}/${cognito.userPoolId}/.well-known/jwks.json`)
    ).json()) as Parameters<ReturnType<typeof CognitoJwtVerifier.create>['cacheJwks']>[0];
    const accessVerifier = CognitoJwtVerifier.create({
      userPoolId: cognito.userPoolId,
      tokenUse: 'access',
      clientId: cognito.clientId,
    });
    accessVerifier.cacheJwks(jwks);
    const accessClaims = await accessVerifier.verify(access);
    expect(accessClaims).toMatchObject({
      username: USER,
      iss: `https://cognito-idp.us-east-1.amazonaws.com/${cognito.userPoolId}`,
      client_id: cognito.clientId,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
    });
    expect(accessClaims.exp - accessClaims.iat).toBe(3600);
    const idVerifier = CognitoJwtVerifier.create({
      userPoolId: cognito.userPoolId,
      tokenUse: 'id',
      clientId: cognito.clientId,
    });
    idVerifier.cacheJwks(jwks);
    expect(await idVerifier.verify(id)).toMatchObject({
      sub: accessClaims.sub,
      aud: cognito.clientId,
      email: EMAIL,
      email_verified: true,
      phone_number: '+34600000001',
      phone_number_verified: true,
      'cognito:username': USER,
      token_use: 'id',
    });

    // GetUser (Amplify's fetchUserAttributes and our SDK calls).
    const me = await sdk.send(new GetUserCommand({ AccessToken: access }));
    expect(me.Username).toBe(USER);

    // Refresh: GetTokensFromRefreshToken, same sign-in (origin_jti, auth_time).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refreshed = await fetchAuthSession({ forceRefresh: true });
    const newAccess = refreshed.tokens?.accessToken.toString() ?? '';
    expect(newAccess).not.toBe(access);
    expect(decodeJwtPayload(newAccess).origin_jti).toBe(accessClaims.origin_jti);
    expect(decodeJwtPayload(newAccess).auth_time).toBe(accessClaims.auth_time);

    await signOut({ global: true });
    for (const token of [access, newAccess]) {
      await expect(sdk.send(new GetUserCommand({ AccessToken: token }))).rejects.toMatchObject({
        name: 'NotAuthorizedException',
      });
    }
  });

  it('signOut() revokes the refresh token (RevokeToken) and the tokens issued from it', async () => {
    await amplifyLogin(EMAIL);
    const session = await fetchAuthSession();
    const access = session.tokens?.accessToken.toString() ?? '';
    await signOut();
    await expect(sdk.send(new GetUserCommand({ AccessToken: access }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    });
    // An expired token of the pool is refused too.
    const expired = cognito.signToken({
      ...decodeJwtPayload(access),
      origin_jti: 'fresh',
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    await expect(sdk.send(new GetUserCommand({ AccessToken: expired }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has expired',
    });
  });

  it('refuses a wrong pin with NotAuthorizedException', async () => {
    await signIn({ username: EMAIL, options: { authFlowType: 'CUSTOM_WITHOUT_SRP' } });
    await confirmSignIn({ challengeResponse: '1234' });
    await expect(confirmSignIn({ challengeResponse: '0000' })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('treats an unknown e-mail like a known one until the answer (PreventUserExistenceErrors)', async () => {
    const known = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: EMAIL },
      }),
    );
    const unknown = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: 'nobody@example.com' },
      }),
    );
    expect(unknown.ChallengeName).toBe(known.ChallengeName);
    expect(Object.keys(unknown.ChallengeParameters ?? {}).sort()).toEqual(
      Object.keys(known.ChallengeParameters ?? {}).sort(),
    );
    expect(known.ChallengeParameters?.USERNAME).toBe(USER);
    expect(unknown.ChallengeParameters?.USERNAME).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
    await expect(
      sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId: cognito.clientId,
          ChallengeName: 'CUSTOM_CHALLENGE',
          Session: unknown.Session,
          ChallengeResponses: {
            USERNAME: unknown.ChallengeParameters?.USERNAME ?? '',
            ANSWER: '1234',
          },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
  });

  it('answers a throwing trigger with UserLambdaValidationException as Cognito words it', async () => {
    await signIn({ username: EMAIL, options: { authFlowType: 'CUSTOM_WITHOUT_SRP' } });
    await expect(confirmSignIn({ challengeResponse: 'throw' })).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: 'VerifyAuthChallengeResponse failed with error pin store unavailable.',
    });
  });

  it('expires sessions after 3 minutes and uses each session once', async () => {
    const start = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: EMAIL },
      }),
    );
    const answer = (session: string | undefined) =>
      sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId: cognito.clientId,
          ChallengeName: 'CUSTOM_CHALLENGE',
          Session: session,
          ChallengeResponses: { USERNAME: USER, ANSWER: '1234' },
        }),
      );
    clockOffsetMs = 181_000;
    await expect(answer(start.Session)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
    clockOffsetMs = 0;
    const again = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: EMAIL },
      }),
    );
    expect((await answer(again.Session)).ChallengeName).toBe('CUSTOM_CHALLENGE');
    await expect(answer(again.Session)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });
});

describe('admin operations (AWS SDK)', () => {
  it('creates, reads, updates, disables and enables users', async () => {
    await expect(createUser(USER, 'other@example.com')).rejects.toMatchObject({
      name: 'UsernameExistsException',
    });
    await expect(createUser('01JD0000000000000000000009', EMAIL)).rejects.toMatchObject({
      name: 'AliasExistsException',
    });
    const user = await sdk.send(
      new AdminGetUserCommand({ UserPoolId: cognito.userPoolId, Username: USER }),
    );
    expect(user).toMatchObject({
      Username: USER,
      Enabled: true,
      UserStatus: 'FORCE_CHANGE_PASSWORD',
    });
    expect(user.UserAttributes).toContainEqual({
      Name: 'sub',
      Value: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await expect(
      sdk.send(new AdminGetUserCommand({ UserPoolId: cognito.userPoolId, Username: 'nobody' })),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
    // Case-insensitive names, kept in the case they were created with.
    const lower = await sdk.send(
      new AdminGetUserCommand({ UserPoolId: cognito.userPoolId, Username: USER.toLowerCase() }),
    );
    expect(lower.Username).toBe(USER);
    await expect(createUser('someone@example.com', 'someone@example.com')).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });

    await sdk.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: cognito.userPoolId,
        Username: USER,
        UserAttributes: [{ Name: 'phone_number', Value: '+34600000002' }],
      }),
    );
    const updated = await sdk.send(
      new AdminGetUserCommand({ UserPoolId: cognito.userPoolId, Username: USER }),
    );
    expect(updated.UserAttributes).toContainEqual({
      Name: 'phone_number_verified',
      Value: 'false',
    });
    await sdk.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: cognito.userPoolId,
        Username: USER,
        UserAttributes: [{ Name: 'phone_number_verified', Value: 'true' }],
      }),
    );

    await amplifyLogin(EMAIL);
    const refreshToken = (await fetchAuthSession()).tokens?.accessToken.toString();
    expect(refreshToken).toBeDefined();
    await sdk.send(new AdminDisableUserCommand({ UserPoolId: cognito.userPoolId, Username: USER }));
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'CUSTOM_AUTH',
          ClientId: cognito.clientId,
          AuthParameters: { USERNAME: EMAIL },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
    await sdk.send(new AdminEnableUserCommand({ UserPoolId: cognito.userPoolId, Username: USER }));
    await signOut();
    await amplifyLogin(EMAIL);
  });

  it('AdminUserGlobalSignOut revokes the refresh token', async () => {
    const start = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'CUSTOM_AUTH',
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: EMAIL },
      }),
    );
    let step = await sdk.send(
      new RespondToAuthChallengeCommand({
        ClientId: cognito.clientId,
        ChallengeName: 'CUSTOM_CHALLENGE',
        Session: start.Session,
        ChallengeResponses: { USERNAME: USER, ANSWER: '1234' },
      }),
    );
    step = await sdk.send(
      new RespondToAuthChallengeCommand({
        ClientId: cognito.clientId,
        ChallengeName: 'CUSTOM_CHALLENGE',
        Session: step.Session,
        ChallengeResponses: { USERNAME: USER, ANSWER: '5678' },
      }),
    );
    const refresh = step.AuthenticationResult?.RefreshToken;
    expect(refresh).toBeDefined();
    const viaInitiate = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: cognito.clientId,
        AuthParameters: { REFRESH_TOKEN: refresh ?? '' },
      }),
    );
    expect(viaInitiate.AuthenticationResult?.AccessToken).toBeDefined();
    await sdk.send(
      new AdminUserGlobalSignOutCommand({ UserPoolId: cognito.userPoolId, Username: USER }),
    );
    await expect(
      sdk.send(
        new GetTokensFromRefreshTokenCommand({ ClientId: cognito.clientId, RefreshToken: refresh }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('measures the login round trip (3 calls, fixture triggers, warm)', async () => {
    const times: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const started = performance.now();
      let step = await sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'CUSTOM_AUTH',
          ClientId: cognito.clientId,
          AuthParameters: { USERNAME: EMAIL },
        }),
      );
      for (const pin of ['1234', '5678']) {
        step = await sdk.send(
          new RespondToAuthChallengeCommand({
            ClientId: cognito.clientId,
            ChallengeName: 'CUSTOM_CHALLENGE',
            Session: step.Session,
            ChallengeResponses: { USERNAME: USER, ANSWER: pin },
          }),
        );
      }
      expect(step.AuthenticationResult?.AccessToken).toBeDefined();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => (times[Math.floor(q * (times.length - 1))] ?? 0).toFixed(1);
    console.log(
      `[cognito] SDK login round trip x${times.length}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`,
    );
  });

  it('fails loudly on operations it does not emulate', async () => {
    await expect(
      sdk.send(new SignUpCommand({ ClientId: cognito.clientId, Username: 'x', Password: 'y' })),
    ).rejects.toMatchObject({
      name: 'UnsupportedOperationException',
      message: expect.stringContaining('SignUp is not emulated by the local Cognito endpoint'),
    });
  });
});

describe('persistence (npm start)', () => {
  it('keeps the signing key, users and refresh tokens in the data file across restarts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cognito-'));
    const dataFile = path.join(dir, 'cognito.json');
    try {
      const first = await startCognito({ dataFile, triggers: FIXTURE_TRIGGER_MODULES });
      const client = new CognitoIdentityProviderClient({
        region: first.region,
        endpoint: first.url,
        credentials: TWIN_CREDENTIALS,
      });
      await client.send(
        new AdminCreateUserCommand({
          UserPoolId: first.userPoolId,
          Username: USER,
          MessageAction: 'SUPPRESS',
          UserAttributes: [{ Name: 'email', Value: EMAIL }],
        }),
      );
      const jwks = first.jwks();
      client.destroy();
      await first.stop();
      const second = await startCognito({ dataFile, triggers: FIXTURE_TRIGGER_MODULES });
      expect(second.jwks()).toEqual(jwks);
      expect(second.getUser(USER)?.attributes.email).toBe(EMAIL);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the local gateway JWT authorizer', () => {
  let gateway: HttpGateway;
  const routes: HttpRoute[] = [
    { method: 'GET', path: '/api/me', handler: 'echo', auth: 'user', group: 'accounts' },
    { method: 'GET', path: '/api/admin/echo', handler: 'echo', auth: 'admin', group: 'accounts' },
  ];

  beforeAll(async () => {
    gateway = await startHttpGateway({
      routes,
      loadHandler: async () => async (event) => ({
        statusCode: 200,
        body: JSON.stringify(
          (event.requestContext as unknown as { authorizer: unknown }).authorizer,
        ),
      }),
      authorizer: cognitoAuthorizer({
        userPoolId: cognito.userPoolId,
        clientId: cognito.clientId,
        jwks: cognito.jwks(),
      }),
    });
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  const call = (token: string | undefined, path = '/api/me') =>
    fetch(`${gateway.url}${path}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  async function tokensOf(email: string): Promise<{ access: string; id: string }> {
    await amplifyLogin(email);
    const session = await fetchAuthSession();
    return {
      access: session.tokens?.accessToken.toString() ?? '',
      id: session.tokens?.idToken?.toString() ?? '',
    };
  }

  it('passes the claims of a good access token as API Gateway does', async () => {
    const { access } = await tokensOf(ADMIN_EMAIL);
    const response = await call(access, '/api/admin/echo');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      jwt: { claims: Record<string, string>; scopes: unknown };
    };
    expect(body.jwt.scopes).toBeNull();
    expect(body.jwt.claims).toMatchObject({
      username: ADMIN,
      'cognito:groups': '[admin]',
      token_use: 'access',
      client_id: cognito.clientId,
    });
    for (const value of Object.values(body.jwt.claims)) expect(typeof value).toBe('string');
    // Without the Bearer prefix too (API Gateway accepts both).
    const bare = await fetch(`${gateway.url}/api/me`, { headers: { authorization: access } });
    expect(bare.status).toBe(200);
  });

  it('answers 401 for a missing, expired, tampered, id or other-client token', async () => {
    const { access, id } = await tokensOf(EMAIL);
    const claims = decodeJwtPayload(access);
    const expired = cognito.signToken({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 });
    const otherClient = cognito.signToken({ ...claims, client_id: 'someotherclient' });
    const [head, payload, signature] = access.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...claims, username: ADMIN, 'cognito:groups': ['admin'] }),
    ).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    for (const token of [
      undefined,
      '',
      'garbage',
      expired,
      otherClient,
      `${head}.${forged}.${signature}`,
      `${head}.${payload}.${flipped}`,
      id,
    ]) {
      const response = await call(token);
      expect(response.status, String(token).slice(0, 20)).toBe(401);
      expect(await response.json()).toEqual({ message: 'Unauthorized' });
    }
    expect((await call(access)).status).toBe(200);
  });
});

describe('password login (passwordLogin switch): AdminSetUserPassword + USER_PASSWORD_AUTH', () => {
  let passwords: CognitoEndpoint;
  let passwordSdk: CognitoIdentityProviderClient;
  const PW_USER = '01JD0000000000000000000009';
  const PW_EMAIL = 'pat@example.com';
  const BLOCKED = '01JD0000000000000000000010';
  const BLOCKED_EMAIL = 'blocked@example.com';
  const PASSWORD = 'secret-1';

  const setPassword = (username: string, password: string, permanent = true) =>
    passwordSdk.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: passwords.userPoolId,
        Username: username,
        Password: password,
        Permanent: permanent,
      }),
    );

  beforeAll(async () => {
    passwords = await startCognito({ triggers: FIXTURE_TRIGGER_MODULES, passwordAuth: true });
    passwordSdk = new CognitoIdentityProviderClient({
      region: passwords.region,
      endpoint: passwords.url,
      credentials: TWIN_CREDENTIALS,
    });
    for (const [username, email, nickname] of [
      [PW_USER, PW_EMAIL, 'pat'],
      [BLOCKED, BLOCKED_EMAIL, 'blocked'],
    ] as const) {
      await passwordSdk.send(
        new AdminCreateUserCommand({
          UserPoolId: passwords.userPoolId,
          Username: username,
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
            { Name: 'nickname', Value: nickname },
          ],
        }),
      );
      await setPassword(username, PASSWORD);
    }
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: passwords.userPoolId,
          userPoolClientId: passwords.clientId,
          userPoolEndpoint: passwords.url,
        },
      },
    });
  });

  afterAll(async () => {
    await signOut().catch(() => undefined);
    passwordSdk?.destroy();
    await passwords?.stop();
  });

  it('keeps only a salted scrypt hash and confirms the user', async () => {
    const stored = passwords.getUser(PW_USER);
    expect(stored?.status).toBe('CONFIRMED');
    expect(stored?.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
    await expect(setPassword(PW_USER, 'short')).rejects.toMatchObject({
      name: 'InvalidPasswordException',
    });
    await expect(setPassword(PW_USER, PASSWORD, false)).rejects.toMatchObject({
      name: 'UnsupportedOperationException',
    });
  });

  it('signs in with Amplify USER_PASSWORD_AUTH by e-mail: tokens at once, no challenge', async () => {
    const result = await signIn({
      username: PW_EMAIL,
      password: PASSWORD,
      options: { authFlowType: 'USER_PASSWORD_AUTH' },
    });
    expect(result.isSignedIn).toBe(true);
    expect(result.nextStep.signInStep).toBe('DONE');
    const session = await fetchAuthSession();
    expect(session.tokens?.accessToken.payload.username).toBe(PW_USER);
    expect(session.tokens?.idToken?.payload.email).toBe(PW_EMAIL);
    // The refresh token works like a custom-auth one.
    const refreshed = await fetchAuthSession({ forceRefresh: true });
    expect(refreshed.tokens?.accessToken.payload.username).toBe(PW_USER);
    await signOut();
  });

  it('answers a wrong password and an unknown user exactly as Cognito words it', async () => {
    for (const [username, password] of [
      [PW_EMAIL, 'wrong-password'],
      ['nobody@example.com', PASSWORD],
    ] as const) {
      await expect(
        signIn({ username, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } }),
      ).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Incorrect username or password.',
      });
    }
  });

  it('runs the pre-authentication trigger: a refused account gets its error code', async () => {
    await expect(
      signIn({
        username: BLOCKED_EMAIL,
        password: PASSWORD,
        options: { authFlowType: 'USER_PASSWORD_AUTH' },
      }),
    ).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: 'PreAuthentication failed with error login.errors.403.',
    });
  });

  it('locks the user out after repeated wrong passwords ("Password attempts exceeded")', async () => {
    const attempt = (password: string) =>
      passwordSdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: passwords.clientId,
          AuthParameters: { USERNAME: PW_USER, PASSWORD: password },
        }),
      );
    await setPassword(PW_USER, PASSWORD); // a new password clears earlier failures
    for (let i = 0; i < 5; i += 1) {
      await expect(attempt('wrong-password')).rejects.toMatchObject({
        message: 'Incorrect username or password.',
      });
    }
    await expect(attempt(PASSWORD)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    });
  });

  it('refuses USER_PASSWORD_AUTH where the client does not allow it (switch off)', async () => {
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: cognito.clientId,
          AuthParameters: { USERNAME: EMAIL, PASSWORD },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'USER_PASSWORD_AUTH flow not enabled for this client',
    });
  });
});
