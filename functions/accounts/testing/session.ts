import {
  AdminAddUserToGroupCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  type InitiateAuthCommandOutput,
} from '@aws-sdk/client-cognito-identity-provider';
import { gatewayFetch, twin } from '../../../infra/local/test/twin-context';
import type { Registered } from '../../../shared/schemas/accounts';

/**
 * For integration tests: sign-up through the gateway and the real login through the twin's local
 * Cognito endpoint (e-mail pin, then phone pin, both read from the dev outbox), giving REAL tokens.
 * login.int.test.ts and functions/sessions use it.
 */

export interface Tokens {
  accessToken: string;
  idToken: string;
  refreshToken: string;
}

export interface TestUser extends Registered, Tokens {}

/** False when the twin runs without a local Cognito endpoint (tests then skip). */
export function hasCognito(): boolean {
  return (twin().env.COGNITO_ENDPOINT ?? '') !== '';
}

let cached: CognitoIdentityProviderClient | undefined;

/** An SDK client of the local Cognito endpoint, as the web's Amplify and our functions use it. */
export function cognitoTestClient(): CognitoIdentityProviderClient {
  const context = twin();
  cached ??= new CognitoIdentityProviderClient({
    region: context.env.AWS_REGION ?? 'us-east-1',
    endpoint: context.env.COGNITO_ENDPOINT,
    credentials: {
      accessKeyId: context.env.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: context.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    },
  });
  return cached;
}

export function clientId(): string {
  const context = twin();
  return context.env.USER_POOL_CLIENT_ID ?? context.userPoolClientId;
}

interface OutboxMessage {
  kind: 'email' | 'sms';
  at: string;
  to?: string[];
  phoneNumber?: string;
  text?: string | null;
  message?: string;
}

/** The newest pin sent to an e-mail address or a phone (throws when there is none). */
export async function lastPin(kind: 'email' | 'sms', to: string): Promise<string> {
  const response = await gatewayFetch('/dev/outbox.json');
  const { messages } = (await response.json()) as { messages: OutboxMessage[] };
  const mine = messages.filter((message) =>
    kind === 'email'
      ? message.kind === 'email' && (message.to ?? []).includes(to)
      : message.kind === 'sms' && message.phoneNumber === to,
  );
  const newest = [...mine].sort((a, b) => (a.at < b.at ? 1 : -1))[0];
  const text = (kind === 'email' ? newest?.text : newest?.message) ?? '';
  const match = /\b(\d{4})\b/.exec(text);
  if (match === null) {
    throw new Error(`no pin for ${to} in ${JSON.stringify(messages.slice(0, 3))}`);
  }
  return match[1] as string;
}

let counter = 0;

/**
 * A new account through POST /api/users/register; `run` prefixes nick and e-mail. An individual by
 * default; `fields` replaces any of the sign-up fields (e.g. a company's user_option and
 * entity_name, with name and surname set to undefined).
 */
export async function signUp(
  run: string,
  fields: Record<string, string | boolean | undefined> = {},
): Promise<Registered> {
  counter += 1;
  const unique = `${String(Date.now() % 100_000).padStart(5, '0')}${String(counter).padStart(3, '0')}`;
  const response = await gatewayFetch('/api/users/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user: {
        user_option: 'individual',
        nick: `${run}${unique}`,
        email: `${run}${unique}@example.com`,
        phone: `+3461${unique}${Math.floor(Math.random() * 9)}`,
        name: 'Login',
        surname: 'Tester',
        terms: true,
        ...fields,
      },
    }),
  });
  if (response.status !== 201) {
    throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  }
  return ((await response.json()) as { data: Registered }).data;
}

export type ChallengeStep = Pick<
  InitiateAuthCommandOutput,
  'Session' | 'ChallengeName' | 'ChallengeParameters' | 'AuthenticationResult'
>;

/**
 * `source`: the caller's IP address the triggers see (UserContextData.IpAddress, which the local
 * endpoint honours); without it, the connection's address (127.0.0.1).
 */
function contextOf(source: string | undefined) {
  return source === undefined ? {} : { UserContextData: { IpAddress: source } };
}

/** InitiateAuth(CUSTOM_AUTH) with the e-mail as the user name. */
export function startLogin(email: string, source?: string): Promise<InitiateAuthCommandOutput> {
  return cognitoTestClient().send(
    new InitiateAuthCommand({
      AuthFlow: 'CUSTOM_AUTH',
      ClientId: clientId(),
      AuthParameters: { USERNAME: email },
      ...contextOf(source),
    }),
  );
}

/** RespondToAuthChallenge with a pin for the previous step's challenge. */
export function answerPin(previous: ChallengeStep, value: string, source?: string) {
  return cognitoTestClient().send(
    new RespondToAuthChallengeCommand({
      ClientId: clientId(),
      ChallengeName: 'CUSTOM_CHALLENGE',
      Session: previous.Session,
      ChallengeResponses: { USERNAME: previous.ChallengeParameters?.USERNAME ?? '', ANSWER: value },
      ...contextOf(source),
    }),
  );
}

/** The full login (e-mail pin, then phone pin): the tokens Amplify would hold. */
export async function logIn(
  user: Pick<Registered, 'email' | 'phone'>,
  source?: string,
): Promise<Tokens> {
  const first = await startLogin(user.email, source);
  const second = await answerPin(first, await lastPin('email', user.email), source);
  const done = await answerPin(second, await lastPin('sms', user.phone), source);
  const result = done.AuthenticationResult;
  if (
    result?.AccessToken === undefined ||
    result.IdToken === undefined ||
    result.RefreshToken === undefined
  ) {
    throw new Error(`login of ${user.email} gave no tokens: ${JSON.stringify(done)}`);
  }
  return {
    accessToken: result.AccessToken,
    idToken: result.IdToken,
    refreshToken: result.RefreshToken,
  };
}

export async function newUser(run: string): Promise<TestUser> {
  const user = await signUp(run);
  return { ...user, ...(await logIn(user)) };
}

/**
 * Puts a user in the pool's `admin` group, as sign-up does for an e-mail listed in ADMIN_EMAILS
 * (the twin's handlers run without that list). Log in afterwards: the group is in new tokens.
 */
export async function makeAdmin(userId: string): Promise<void> {
  await cognitoTestClient().send(
    new AdminAddUserToGroupCommand({
      UserPoolId: twin().env.USER_POOL_ID ?? twin().userPoolId,
      Username: userId,
      GroupName: 'admin',
    }),
  );
}

/** A new user in the pool's `admin` group (support), logged in again so its tokens carry it. */
export async function newAdmin(run: string): Promise<TestUser> {
  const user = await newUser(run);
  await makeAdmin(user.id);
  return { ...user, ...(await logIn(user)) };
}

/** A JSON call through the gateway, with a bearer token when given. */
export async function call<T = unknown>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{
  status: number;
  json: {
    data: T;
    error: { code: string; fields?: Record<string, string>; details?: Record<string, unknown> };
  };
}> {
  const response = await gatewayFetch(path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text === '' ? {} : JSON.parse(text)) as never };
}
