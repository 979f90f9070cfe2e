import { createHmac, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { Context } from 'aws-lambda';
import { cognitoOperations, cognitoTriggers } from '../../../functions/routes';
import { readSwitches } from '../../../shared/switches';
import { COGNITO_TRIGGER_TIMEOUT_SECONDS } from '../../../functions/core/budgets';
import { lambdaContext } from '../api-gateway-v2';
import { invokeWithin } from '../invocation';
import { handlerLoader } from '../http-gateway';
import {
  REPO_ROOT,
  TWIN_REGION,
  assertPortFree,
  closeServer,
  listen,
  readBody,
  silentLog,
  type Log,
} from '../support';
import {
  loadKey,
  newSigningKey,
  publicJwk,
  signJwt,
  storeKey,
  verifyJwt,
  type Jwk,
  type SigningKey,
  type StoredKey,
} from './jwt';

/**
 * A local Cognito user pool (Cognito Identity Provider, AWS JSON 1.1 on `POST /` with
 * `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`) implementing exactly the
 * operations of `cognitoOperations` in functions/routes.ts, with the custom-auth triggers of
 * `cognitoTriggers` invoked in this process. See README.md beside this file.
 */

export type TriggerName = keyof typeof cognitoTriggers;

export const TRIGGER_SOURCES: Record<TriggerName, string> = {
  defineAuthChallenge: 'DefineAuthChallenge_Authentication',
  createAuthChallenge: 'CreateAuthChallenge_Authentication',
  verifyAuthChallengeResponse: 'VerifyAuthChallengeResponse_Authentication',
  preAuthentication: 'PreAuthentication_Authentication',
};

/** The trigger names Cognito uses in `UserLambdaValidationException` messages. */
const TRIGGER_LABELS: Record<TriggerName, string> = {
  defineAuthChallenge: 'DefineAuthChallenge',
  createAuthChallenge: 'CreateAuthChallenge',
  verifyAuthChallengeResponse: 'VerifyAuthChallengeResponse',
  preAuthentication: 'PreAuthentication',
};

export type TriggerHandler = (event: CognitoTriggerEvent, context: Context) => Promise<unknown>;

/** Where the trigger modules live: `<functionsDir>/<paths[name]>.ts`, each exporting `handler`. */
export interface TriggerModules {
  functionsDir: string;
  paths: Record<TriggerName, string>;
}

/** The real triggers of the route table (functions/accounts/triggers/…). */
export const DEFAULT_TRIGGER_MODULES: TriggerModules = {
  functionsDir: path.join(REPO_ROOT, 'functions'),
  paths: { ...cognitoTriggers },
};

/** Fixture triggers for tests: an e-mail pin '1234', then a phone pin '5678'. */
export const FIXTURE_TRIGGER_MODULES: TriggerModules = {
  functionsDir: path.join(REPO_ROOT, 'infra', 'local', 'cognito', 'fixtures'),
  paths: {
    defineAuthChallenge: 'define-auth-challenge',
    createAuthChallenge: 'create-auth-challenge',
    verifyAuthChallengeResponse: 'verify-auth-challenge',
    preAuthentication: 'pre-authentication',
  },
};

/** The missing module files of a trigger set (empty: all present). */
export function missingTriggerFiles(modules: TriggerModules): string[] {
  return Object.values(modules.paths)
    .map((handler) => path.join(modules.functionsDir, `${handler}.ts`))
    .filter((file) => !existsSync(file));
}

export interface ChallengeResult {
  challengeName: string;
  challengeResult: boolean;
  challengeMetadata?: string;
}

/** The event of the custom-auth and pre-authentication triggers (Cognito's shape, version '1'). */
export interface CognitoTriggerEvent {
  version: '1';
  triggerSource: string;
  region: string;
  userPoolId: string;
  userName: string;
  callerContext: { awsSdkVersion: string; clientId: string };
  request: {
    userAttributes: Record<string, string>;
    session?: ChallengeResult[];
    challengeName?: string;
    privateChallengeParameters?: Record<string, string>;
    challengeAnswer?: string;
    clientMetadata?: Record<string, string>;
    /** PreAuthentication only. */
    validationData?: Record<string, string>;
    /**
     * The caller's IP address (see `callerSource`), on every trigger of InitiateAuth and
     * RespondToAuthChallenge. The custom-auth triggers read it (functions/accounts/login.ts).
     */
    userContextData?: { ipAddress: string };
    userNotFound: boolean;
  };
  response: Record<string, unknown>;
}

export interface CognitoUser {
  username: string;
  /** Attribute name → value, always with `sub` (a UUID the pool generates, as Cognito does). */
  attributes: Record<string, string>;
  enabled: boolean;
  status: string;
  groups: string[];
  createdAt: number;
  modifiedAt: number;
  /**
   * AdminSetUserPassword's password as a salted scrypt hash (`scrypt$N$r$p$salt$hash`, base64url);
   * the plain password is never kept.
   */
  passwordHash?: string;
}

interface RefreshRecord {
  username: string;
  clientId: string;
  originJti: string;
  authTime: number;
  expiresAt: number;
  revoked: boolean;
}

interface PoolState {
  keys: StoredKey[];
  /** HMAC secret of the pseudo user names answered for unknown users. */
  secret: string;
  users: Record<string, CognitoUser>;
  /** Refresh token → its record. */
  refreshTokens: Record<string, RefreshRecord>;
  /** origin_jti of revoked sign-ins (RevokeToken, GlobalSignOut, AdminUserGlobalSignOut). */
  revokedOrigins: string[];
}

interface AuthSession {
  clientId: string;
  /** The pool user, or undefined for an unknown user (PreventUserExistenceErrors). */
  username: string | undefined;
  /** USERNAME as the client sent it, and as answered in ChallengeParameters.USERNAME. */
  requestedName: string;
  answeredName: string;
  challenges: ChallengeResult[];
  privateChallengeParameters: Record<string, string>;
  challengeMetadata: string | undefined;
  expiresAt: number;
  /** The source of the request being answered (set on every InitiateAuth/RespondToAuthChallenge). */
  sourceIp?: string;
}

/**
 * The caller's source for the triggers: `UserContextData.IpAddress` when the request carries one
 * (as Cognito accepts it from an app client with EnablePropagateAdditionalUserContextData; tests
 * use it to act as several sources), else the connection's peer address.
 */
export function callerSource(
  input: Record<string, unknown>,
  peer: string | undefined,
): string | undefined {
  const context = input.UserContextData;
  if (typeof context === 'object' && context !== null) {
    const ip = (context as { IpAddress?: unknown }).IpAddress;
    if (typeof ip === 'string' && ip.trim() !== '') return ip.trim();
  }
  if (peer === undefined || peer === '') return undefined;
  return peer.startsWith('::ffff:') ? peer.slice('::ffff:'.length) : peer;
}

export interface CognitoOptions {
  port?: number;
  region?: string;
  /** Default `<region>_local`. */
  userPoolId?: string;
  /** Default `localwebclient`. */
  clientId?: string;
  /** Persist keys, users and refresh tokens here (npm start); memory when omitted (tests). */
  dataFile?: string;
  /** Trigger modules (default: the real ones). Auth answers an error while files are missing. */
  triggers?: TriggerModules;
  /** Token lifetimes in seconds (Cognito: access/id 1 h, refresh 365 days, session 3 min). */
  accessTokenSeconds?: number;
  refreshTokenSeconds?: number;
  sessionSeconds?: number;
  /**
   * The app client allows USER_PASSWORD_AUTH (CDK's `authFlows.userPassword`, set from the same
   * switch): default the passwordLogin switch of this process's FEATURE_PASSWORD_LOGIN. It also
   * runs the PreAuthentication trigger on InitiateAuth, as the pool does once it has one.
   */
  passwordAuth?: boolean;
  /** Trigger timeout (Cognito: 5 s). */
  triggerTimeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Called before each trigger invocation (the parity test watches which modules run). */
  onTrigger?: (name: TriggerName, handler: string) => void;
  log?: Log;
}

export interface CognitoEndpoint {
  url: string;
  port: number;
  region: string;
  userPoolId: string;
  clientId: string;
  issuer: string;
  jwks(): { keys: Jwk[] };
  /** False while the trigger modules are missing (sign-in answers an error then). */
  authAvailable(): boolean;
  /** Test and seed helpers (no Cognito operation behind them). */
  addUserToGroup(username: string, group: string): void;
  getUser(username: string): CognitoUser | undefined;
  /** Signs arbitrary claims with the pool's key (tests: expired or foreign-client tokens). */
  signToken(claims: Record<string, unknown>): string;
  stop(): Promise<void>;
}

export const COGNITO_TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/** A Cognito error: `{ "__type": name, "message": message }` with HTTP 400 (or status). */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const notAuthorized = (message: string): CognitoError =>
  new CognitoError('NotAuthorizedException', message);
const invalidParameter = (message: string): CognitoError =>
  new CognitoError('InvalidParameterException', message);

/** The groups of the pool (CDK creates the same). */
export const USER_POOL_GROUPS = ['admin'] as const;

const STANDARD_ATTRIBUTES = new Set([
  'email',
  'email_verified',
  'phone_number',
  'phone_number_verified',
  'name',
  'family_name',
  'given_name',
  'locale',
  'nickname',
]);

const MUTABLE_ONLY_BY_POOL = new Set(['sub']);

export async function startCognito(options: CognitoOptions = {}): Promise<CognitoEndpoint> {
  const log = options.log ?? silentLog;
  const region = options.region ?? TWIN_REGION;
  const userPoolId = options.userPoolId ?? `${region}_local`;
  const clientId = options.clientId ?? 'localwebclient';
  const issuer = `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
  const now = options.now ?? Date.now;
  const accessSeconds = options.accessTokenSeconds ?? 3600;
  const refreshSeconds = options.refreshTokenSeconds ?? 365 * 24 * 3600;
  const sessionMs = (options.sessionSeconds ?? 180) * 1000;
  const triggerTimeoutMs = options.triggerTimeoutMs ?? COGNITO_TRIGGER_TIMEOUT_SECONDS * 1000;
  const triggers = options.triggers ?? DEFAULT_TRIGGER_MODULES;
  const loader = handlerLoader(triggers.functionsDir);
  const passwordAuth = options.passwordAuth ?? readSwitches(process.env).passwordLogin;
  /** Consecutive wrong passwords per user, for Cognito's lockout ("Password attempts exceeded"). */
  const passwordFailures = new Map<string, { count: number; lockedUntil: number }>();

  const state = loadState(options.dataFile);
  const keys: SigningKey[] = state.keys.map(loadKey);
  if (keys.length === 0) {
    const key = newSigningKey();
    keys.push(key);
    state.keys.push(storeKey(key));
  }
  const signingKey = keys[0] as SigningKey;
  const revoked = new Set(state.revokedOrigins);
  const sessions = new Map<string, AuthSession>();
  const save = (): void => {
    state.revokedOrigins = [...revoked];
    if (options.dataFile !== undefined) persistState(options.dataFile, state);
  };
  save();

  const epoch = (): number => Math.floor(now() / 1000);

  // --- users -----------------------------------------------------------------------------------

  function findUser(name: string): CognitoUser | undefined {
    const key = name.toLowerCase();
    const byName = state.users[key];
    if (byName !== undefined) return byName;
    // E-mail alias: only a verified e-mail signs in (Cognito's alias semantics).
    return Object.values(state.users).find(
      (user) =>
        user.attributes.email?.toLowerCase() === key && user.attributes.email_verified === 'true',
    );
  }

  function requireUser(name: unknown): CognitoUser {
    if (typeof name !== 'string' || name === '') throw invalidParameter('Username is required.');
    const user = state.users[name.toLowerCase()];
    if (user === undefined) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    return user;
  }

  function attributeList(user: CognitoUser): { Name: string; Value: string }[] {
    return Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value }));
  }

  function triggerAttributes(user: CognitoUser | undefined): Record<string, string> {
    if (user === undefined) return {};
    return {
      ...user.attributes,
      'cognito:user_status': user.status,
      ...(user.attributes.email_verified === 'true' && user.attributes.email !== undefined
        ? { 'cognito:email_alias': user.attributes.email }
        : {}),
    };
  }

  function readAttributes(value: unknown): Record<string, string> {
    if (value === undefined) return {};
    if (!Array.isArray(value)) throw invalidParameter('UserAttributes must be a list.');
    const result: Record<string, string> = {};
    for (const entry of value as { Name?: unknown; Value?: unknown }[]) {
      if (typeof entry?.Name !== 'string') throw invalidParameter('Attribute Name is required.');
      const name = entry.Name;
      if (MUTABLE_ONLY_BY_POOL.has(name)) {
        throw invalidParameter(`Cannot modify an already provided ${name} attribute`);
      }
      if (!STANDARD_ATTRIBUTES.has(name) && !name.startsWith('custom:')) {
        throw invalidParameter(`Attribute does not exist in the schema: ${name}`);
      }
      result[name] = typeof entry.Value === 'string' ? entry.Value : '';
    }
    if (result.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(result.email)) {
      throw invalidParameter('Invalid email address format.');
    }
    if (result.phone_number !== undefined && !/^\+[1-9]\d{1,14}$/.test(result.phone_number)) {
      throw invalidParameter('Invalid phone number format.');
    }
    return result;
  }

  function assertAliasFree(user: { username: string; attributes: Record<string, string> }): void {
    const email = user.attributes.email?.toLowerCase();
    if (email === undefined || user.attributes.email_verified !== 'true') return;
    const other = Object.values(state.users).find(
      (candidate) =>
        candidate.username !== user.username &&
        candidate.attributes.email?.toLowerCase() === email &&
        candidate.attributes.email_verified === 'true',
    );
    if (other !== undefined) {
      throw new CognitoError('AliasExistsException', 'An account with the email already exists.');
    }
  }

  // --- tokens ----------------------------------------------------------------------------------

  function issueTokens(
    user: CognitoUser,
    client: string,
    origin: { originJti: string; authTime: number } | undefined,
  ): { AccessToken: string; IdToken: string; ExpiresIn: number; TokenType: 'Bearer' } & {
    originJti: string;
  } {
    const iat = epoch();
    const originJti = origin?.originJti ?? randomUUID();
    const authTime = origin?.authTime ?? iat;
    const eventId = randomUUID();
    const groups = user.groups.length > 0 ? { 'cognito:groups': [...user.groups] } : {};
    const access = signJwt(
      {
        sub: user.attributes.sub,
        ...groups,
        iss: issuer,
        client_id: client,
        origin_jti: originJti,
        event_id: eventId,
        token_use: 'access',
        scope: 'aws.cognito.signin.user.admin',
        auth_time: authTime,
        exp: iat + accessSeconds,
        iat,
        jti: randomUUID(),
        username: user.username,
      },
      signingKey,
    );
    const optional = (name: string): Record<string, unknown> => {
      const value = user.attributes[name];
      if (value === undefined) return {};
      return { [name]: name.endsWith('_verified') ? value === 'true' : value };
    };
    const id = signJwt(
      {
        sub: user.attributes.sub,
        ...groups,
        ...optional('email_verified'),
        iss: issuer,
        ...optional('phone_number_verified'),
        'cognito:username': user.username,
        origin_jti: originJti,
        aud: client,
        event_id: eventId,
        token_use: 'id',
        auth_time: authTime,
        ...optional('phone_number'),
        exp: iat + accessSeconds,
        iat,
        jti: randomUUID(),
        ...optional('email'),
        ...optional('nickname'),
      },
      signingKey,
    );
    return {
      AccessToken: access,
      IdToken: id,
      ExpiresIn: accessSeconds,
      TokenType: 'Bearer',
      originJti,
    };
  }

  function newRefreshToken(
    user: CognitoUser,
    client: string,
    originJti: string,
    authTime: number,
  ): string {
    // Opaque to clients (Cognito's are encrypted JWTs: five dot-separated parts).
    const token = [
      randomBytes(32),
      randomBytes(12),
      randomBytes(64),
      randomBytes(12),
      randomBytes(16),
    ]
      .map((part) => part.toString('base64url'))
      .join('.');
    state.refreshTokens[token] = {
      username: user.username,
      clientId: client,
      originJti,
      authTime,
      expiresAt: epoch() + refreshSeconds,
      revoked: false,
    };
    save();
    return token;
  }

  /** A valid access token of this pool → its claims and user, else NotAuthorizedException. */
  function checkAccessToken(token: unknown): {
    claims: Record<string, unknown>;
    user: CognitoUser;
  } {
    if (typeof token !== 'string' || token === '')
      throw invalidParameter('AccessToken is required.');
    const claims = verifyJwt(token, keys);
    if (claims === null || claims.iss !== issuer || claims.token_use !== 'access') {
      throw notAuthorized('Invalid Access Token');
    }
    if (typeof claims.exp !== 'number' || claims.exp <= epoch()) {
      throw notAuthorized('Access Token has expired');
    }
    if (typeof claims.origin_jti === 'string' && revoked.has(claims.origin_jti)) {
      throw notAuthorized('Access Token has been revoked');
    }
    const user = state.users[String(claims.username).toLowerCase()];
    if (user === undefined) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    if (!user.enabled) throw notAuthorized('User is disabled.');
    return { claims, user };
  }

  function revokeUser(username: string): void {
    for (const record of Object.values(state.refreshTokens)) {
      if (record.username === username) {
        record.revoked = true;
        revoked.add(record.originJti);
      }
    }
    save();
  }

  function refresh(client: string, token: unknown): Record<string, unknown> {
    if (typeof token !== 'string' || token === '')
      throw invalidParameter('RefreshToken is required.');
    const record = state.refreshTokens[token];
    if (record === undefined || record.clientId !== client)
      throw notAuthorized('Invalid Refresh Token');
    if (record.revoked) throw notAuthorized('Refresh Token has been revoked');
    if (record.expiresAt <= epoch()) throw notAuthorized('Refresh Token has expired');
    const user = state.users[record.username.toLowerCase()];
    if (user === undefined) throw notAuthorized('Invalid Refresh Token');
    if (!user.enabled) throw notAuthorized('User is disabled.');
    const { originJti: _origin, ...tokens } = issueTokens(user, client, record);
    // No refresh-token rotation (the pool's default): the client keeps its refresh token.
    return { AuthenticationResult: tokens, ChallengeParameters: {} };
  }

  // --- triggers ---------------------------------------------------------------------------------

  async function runTrigger(
    name: TriggerName,
    session: AuthSession,
    request: CognitoTriggerEvent['request'],
    response: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const missing = missingTriggerFiles(triggers);
    if (missing.length > 0) {
      throw new CognitoError(
        'InvalidLambdaResponseException',
        `The local Cognito endpoint has no custom-auth trigger modules yet (${missing
          .map((file) => path.relative(REPO_ROOT, file))
          .join(', ')}): sign-in is unavailable on the twin.`,
      );
    }
    const handler = (await loader(triggers.paths[name])) as unknown as TriggerHandler;
    options.onTrigger?.(name, triggers.paths[name]);
    const event: CognitoTriggerEvent = {
      version: '1',
      triggerSource: TRIGGER_SOURCES[name],
      region,
      userPoolId,
      userName: session.username ?? session.requestedName,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: session.clientId },
      request:
        session.sourceIp === undefined
          ? request
          : { ...request, userContextData: { ipAddress: session.sourceIp } },
      response,
    };
    const started = Date.now();
    try {
      // Held to Cognito's 5 s as Lambda holds the trigger to its timeout (invocation.ts).
      const result = await invokeWithin(
        {
          functionName: triggers.paths[name],
          handler: triggers.paths[name],
          timeoutSeconds: triggerTimeoutMs / 1000,
          region,
          context: (timeoutMs) => lambdaContext(triggers.paths[name], timeoutMs, started),
        },
        (context) => handler(event, context),
      );
      // A handler returns the event (async style); Cognito reads its `response`.
      const returned = (result ?? event) as { response?: unknown };
      const out = returned.response;
      if (typeof out !== 'object' || out === null) {
        throw new CognitoError(
          'InvalidLambdaResponseException',
          'Invalid lambda function output : Invalid JSON',
        );
      }
      return out as Record<string, unknown>;
    } catch (error) {
      if (error instanceof CognitoError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      log(`[cognito] ${TRIGGER_LABELS[name]} failed: ${message}`);
      throw new CognitoError(
        'UserLambdaValidationException',
        `${TRIGGER_LABELS[name]} failed with error ${message}.`,
      );
    }
  }

  /** Runs define (and create when a challenge follows); answers a challenge or tokens. */
  async function nextStep(
    session: AuthSession,
    clientMetadata: Record<string, string> | undefined,
  ): Promise<Record<string, unknown>> {
    const user =
      session.username === undefined ? undefined : state.users[session.username.toLowerCase()];
    const userNotFound = user === undefined;
    const metadata = clientMetadata === undefined ? {} : { clientMetadata };
    const define = await runTrigger(
      'defineAuthChallenge',
      session,
      {
        userAttributes: triggerAttributes(user),
        session: session.challenges.map((entry) => ({ ...entry })),
        ...metadata,
        userNotFound,
      },
      { challengeName: null, issueTokens: null, failAuthentication: null },
    );
    if (define.failAuthentication === true) throw notAuthorized('Incorrect username or password.');
    if (define.issueTokens === true) {
      if (user === undefined) throw notAuthorized('Incorrect username or password.');
      if (!user.enabled) throw notAuthorized('User is disabled.');
      const { originJti, ...tokens } = issueTokens(user, session.clientId, undefined);
      const authTime = epoch();
      return {
        AuthenticationResult: {
          ...tokens,
          RefreshToken: newRefreshToken(user, session.clientId, originJti, authTime),
        },
        ChallengeParameters: {},
      };
    }
    if (define.challengeName !== 'CUSTOM_CHALLENGE') {
      throw new CognitoError(
        'InvalidLambdaResponseException',
        define.challengeName === undefined || define.challengeName === null
          ? 'Invalid lambda function output : Invalid JSON'
          : `The local Cognito endpoint emulates only CUSTOM_CHALLENGE; DefineAuthChallenge chose ${String(define.challengeName)}.`,
      );
    }
    const create = await runTrigger(
      'createAuthChallenge',
      session,
      {
        userAttributes: triggerAttributes(user),
        challengeName: 'CUSTOM_CHALLENGE',
        session: session.challenges.map((entry) => ({ ...entry })),
        ...metadata,
        userNotFound,
      },
      {
        publicChallengeParameters: null,
        privateChallengeParameters: null,
        challengeMetadata: null,
      },
    );
    session.privateChallengeParameters = stringMap(create.privateChallengeParameters);
    session.challengeMetadata =
      typeof create.challengeMetadata === 'string' ? create.challengeMetadata : undefined;
    session.expiresAt = now() + sessionMs;
    const id = newSessionId();
    sessions.set(id, session);
    return {
      ChallengeName: 'CUSTOM_CHALLENGE',
      ChallengeParameters: {
        ...stringMap(create.publicChallengeParameters),
        USERNAME: session.answeredName,
      },
      Session: id,
    };
  }

  /** PreAuthentication, for a known user, before the password (or the first challenge). */
  async function preAuthenticate(
    user: CognitoUser,
    client: string,
    requestedName: string,
    clientMetadata: Record<string, string> | undefined,
  ): Promise<void> {
    if (!passwordAuth) return;
    const session: AuthSession = {
      clientId: client,
      username: user.username,
      requestedName,
      answeredName: user.username,
      challenges: [],
      privateChallengeParameters: {},
      challengeMetadata: undefined,
      expiresAt: 0,
    };
    await runTrigger(
      'preAuthentication',
      session,
      {
        userAttributes: triggerAttributes(user),
        validationData: {},
        ...(clientMetadata === undefined ? {} : { clientMetadata }),
        userNotFound: false,
      },
      {},
    );
  }

  /** USER_PASSWORD_AUTH: the pre-authentication trigger, the password, then tokens. */
  async function passwordSignIn(
    client: string,
    params: Record<string, string>,
    clientMetadata: Record<string, string> | undefined,
  ): Promise<Record<string, unknown>> {
    const name = params.USERNAME;
    if (name === undefined || name === '') {
      throw invalidParameter('Missing required parameter USERNAME');
    }
    const password = params.PASSWORD;
    if (password === undefined || password === '') {
      throw invalidParameter('Missing required parameter PASSWORD');
    }
    const user = findUser(name);
    if (user === undefined || user.passwordHash === undefined) {
      // Same work and the same answer as a wrong password (PreventUserExistenceErrors).
      await verifyPassword(password, DUMMY_HASH);
      throw notAuthorized('Incorrect username or password.');
    }
    if (!user.enabled) throw notAuthorized('User is disabled.');
    const failures = passwordFailures.get(user.username.toLowerCase());
    if (failures !== undefined && failures.lockedUntil > now()) {
      throw notAuthorized('Password attempts exceeded');
    }
    await preAuthenticate(user, client, name, clientMetadata);
    if (!(await verifyPassword(password, user.passwordHash))) {
      const count = (failures?.count ?? 0) + 1;
      // Cognito: after 5 failures, a lockout that doubles with each further one (max 15 min).
      const lockMs = count < 5 ? 0 : Math.min(1000 * 2 ** (count - 5), 15 * 60_000);
      passwordFailures.set(user.username.toLowerCase(), { count, lockedUntil: now() + lockMs });
      throw notAuthorized('Incorrect username or password.');
    }
    passwordFailures.delete(user.username.toLowerCase());
    const { originJti, ...tokens } = issueTokens(user, client, undefined);
    return {
      AuthenticationResult: {
        ...tokens,
        RefreshToken: newRefreshToken(user, client, originJti, epoch()),
      },
      ChallengeParameters: {},
    };
  }

  function pseudoUsername(name: string): string {
    // Unknown users get a stable id that looks like a real one (no hint that the user is unknown).
    const digest = createHmac('sha256', state.secret).update(name.toLowerCase()).digest();
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    let out = alphabet[(digest[0] ?? 0) % 8] ?? '0';
    for (let i = 1; i < 26; i += 1) out += alphabet[(digest[i] ?? 0) % 32];
    return out;
  }

  function checkClient(id: unknown): string {
    if (typeof id !== 'string' || id === '') throw invalidParameter('ClientId is required.');
    if (id !== clientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${id} does not exist.`);
    }
    return id;
  }

  function checkPool(id: unknown): void {
    if (id !== userPoolId) {
      throw new CognitoError(
        'ResourceNotFoundException',
        `User pool ${String(id)} does not exist.`,
      );
    }
  }

  // --- operations ------------------------------------------------------------------------------

  type Operation = (
    input: Record<string, unknown>,
    caller: { sourceIp: string | undefined },
  ) => Promise<Record<string, unknown>>;
  const operations: Record<string, Operation> = {
    async InitiateAuth(input, caller) {
      const client = checkClient(input.ClientId);
      const params = stringMap(input.AuthParameters);
      const flow = input.AuthFlow;
      if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') {
        return refresh(client, params.REFRESH_TOKEN);
      }
      if (flow === 'USER_PASSWORD_AUTH' && passwordAuth) {
        return passwordSignIn(client, params, optionalStringMap(input.ClientMetadata));
      }
      if (flow !== 'CUSTOM_AUTH') {
        throw invalidParameter(`${String(flow)} flow not enabled for this client`);
      }
      const name = params.USERNAME;
      if (name === undefined || name === '') {
        throw invalidParameter('Missing required parameter USERNAME');
      }
      const user = findUser(name);
      if (user !== undefined && !user.enabled) throw notAuthorized('User is disabled.');
      if (user !== undefined) {
        await preAuthenticate(user, client, name, optionalStringMap(input.ClientMetadata));
      }
      const session: AuthSession = {
        clientId: client,
        username: user?.username,
        requestedName: name,
        answeredName: user?.username ?? pseudoUsername(name),
        challenges: [],
        privateChallengeParameters: {},
        challengeMetadata: undefined,
        expiresAt: 0,
        ...(caller.sourceIp === undefined ? {} : { sourceIp: caller.sourceIp }),
      };
      return nextStep(session, optionalStringMap(input.ClientMetadata));
    },

    async RespondToAuthChallenge(input, caller) {
      const client = checkClient(input.ClientId);
      if (input.ChallengeName !== 'CUSTOM_CHALLENGE') {
        throw invalidParameter(
          `The local Cognito endpoint emulates only CUSTOM_CHALLENGE, not ${String(input.ChallengeName)}.`,
        );
      }
      const id = typeof input.Session === 'string' ? input.Session : '';
      const session = sessions.get(id);
      // Sessions are single-use: every answer gets a new one.
      sessions.delete(id);
      if (session === undefined || session.expiresAt <= now() || session.clientId !== client) {
        throw notAuthorized('Invalid session for the user, session is expired.');
      }
      // Each answer's triggers see the source of that answer.
      if (caller.sourceIp === undefined) delete session.sourceIp;
      else session.sourceIp = caller.sourceIp;
      const responses = stringMap(input.ChallengeResponses);
      const named = responses.USERNAME;
      if (named === undefined) throw invalidParameter('Missing required parameter USERNAME');
      if (
        ![session.answeredName, session.requestedName].some(
          (n) => n.toLowerCase() === named.toLowerCase(),
        )
      ) {
        throw notAuthorized('Invalid session for the user.');
      }
      const answer = responses.ANSWER;
      if (answer === undefined) throw invalidParameter('Missing required parameter ANSWER');
      const user =
        session.username === undefined ? undefined : state.users[session.username.toLowerCase()];
      if (user !== undefined && !user.enabled) throw notAuthorized('User is disabled.');
      const clientMetadata = optionalStringMap(input.ClientMetadata);
      const verify = await runTrigger(
        'verifyAuthChallengeResponse',
        session,
        {
          userAttributes: triggerAttributes(user),
          privateChallengeParameters: { ...session.privateChallengeParameters },
          challengeAnswer: answer,
          ...(clientMetadata === undefined ? {} : { clientMetadata }),
          userNotFound: user === undefined,
        },
        { answerCorrect: null },
      );
      session.challenges.push({
        challengeName: 'CUSTOM_CHALLENGE',
        challengeResult: verify.answerCorrect === true,
        ...(session.challengeMetadata === undefined
          ? {}
          : { challengeMetadata: session.challengeMetadata }),
      });
      return nextStep(session, clientMetadata);
    },

    async GetTokensFromRefreshToken(input) {
      const client = checkClient(input.ClientId);
      const { AuthenticationResult } = refresh(client, input.RefreshToken);
      return { AuthenticationResult };
    },

    async GetUser(input) {
      const { user } = checkAccessToken(input.AccessToken);
      return { Username: user.username, UserAttributes: attributeList(user) };
    },

    async RevokeToken(input) {
      const client = checkClient(input.ClientId);
      if (typeof input.Token !== 'string' || input.Token === '') {
        throw invalidParameter('Token is required.');
      }
      const record = state.refreshTokens[input.Token];
      if (record === undefined) {
        throw new CognitoError(
          'UnsupportedTokenTypeException',
          'The token is not a refresh token.',
        );
      }
      if (record.clientId !== client) {
        throw new CognitoError('UnauthorizedException', 'The token was not issued to this client.');
      }
      record.revoked = true;
      revoked.add(record.originJti);
      save();
      return {};
    },

    async GlobalSignOut(input) {
      const { user } = checkAccessToken(input.AccessToken);
      revokeUser(user.username);
      return {};
    },

    async AdminCreateUser(input) {
      checkPool(input.UserPoolId);
      if (
        typeof input.Username !== 'string' ||
        !/^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u.test(input.Username)
      ) {
        throw invalidParameter('Invalid Username.');
      }
      if (input.MessageAction !== 'SUPPRESS') {
        throw new CognitoError(
          'UnsupportedOperationException',
          'The local Cognito endpoint sends no invitations: AdminCreateUser needs MessageAction SUPPRESS.',
        );
      }
      if (input.TemporaryPassword !== undefined) {
        throw new CognitoError(
          'UnsupportedOperationException',
          'The local Cognito endpoint has no temporary passwords: omit TemporaryPassword (AdminSetUserPassword sets a permanent one).',
        );
      }
      // Case-insensitive pool: looked up in any case, kept in the case it was created with.
      const username = input.Username;
      if (state.users[username.toLowerCase()] !== undefined) {
        throw new CognitoError('UsernameExistsException', 'User account already exists');
      }
      if (/^[^\s@]+@[^\s@]+$/.test(username)) {
        throw invalidParameter(
          'Username cannot be of email format, since user pool is configured for email alias.',
        );
      }
      const t = now();
      const user: CognitoUser = {
        username,
        attributes: { ...readAttributes(input.UserAttributes), sub: randomUUID() },
        enabled: true,
        status: 'FORCE_CHANGE_PASSWORD',
        groups: [],
        createdAt: t,
        modifiedAt: t,
      };
      assertAliasFree(user);
      state.users[username.toLowerCase()] = user;
      save();
      return {
        User: {
          Username: user.username,
          Attributes: attributeList(user),
          UserCreateDate: t / 1000,
          UserLastModifiedDate: t / 1000,
          Enabled: true,
          UserStatus: user.status,
        },
      };
    },

    async AdminSetUserPassword(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      if (input.Permanent !== true) {
        throw new CognitoError(
          'UnsupportedOperationException',
          'The local Cognito endpoint sets only permanent passwords: Permanent must be true.',
        );
      }
      const password = input.Password;
      if (typeof password !== 'string' || password === '') {
        throw invalidParameter('Missing required parameter Password');
      }
      // The pool's policy while password login is on (infra identity stack): 6 to 256 characters.
      if (password.length < 6) {
        throw new CognitoError(
          'InvalidPasswordException',
          'Password did not conform with policy: Password not long enough',
        );
      }
      if (password.length > 256) {
        throw invalidParameter('Password must have length less than or equal to 256');
      }
      user.passwordHash = await hashPassword(password);
      user.status = 'CONFIRMED';
      user.modifiedAt = now();
      passwordFailures.delete(user.username.toLowerCase());
      save();
      return {};
    },

    async AdminGetUser(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      return {
        Username: user.username,
        UserAttributes: attributeList(user),
        UserCreateDate: user.createdAt / 1000,
        UserLastModifiedDate: user.modifiedAt / 1000,
        Enabled: user.enabled,
        UserStatus: user.status,
      };
    },

    async AdminUpdateUserAttributes(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      const changes = readAttributes(input.UserAttributes);
      const next = { ...user.attributes };
      for (const [name, value] of Object.entries(changes)) {
        if (value === '') Reflect.deleteProperty(next, name);
        else next[name] = value;
      }
      // Cognito marks a changed e-mail or phone unverified unless the same call verifies it.
      for (const [attribute, flag] of [
        ['email', 'email_verified'],
        ['phone_number', 'phone_number_verified'],
      ] as const) {
        if (
          changes[attribute] !== undefined &&
          changes[attribute] !== user.attributes[attribute] &&
          changes[flag] === undefined
        ) {
          next[flag] = 'false';
        }
      }
      assertAliasFree({ username: user.username, attributes: next });
      user.attributes = next;
      user.modifiedAt = now();
      save();
      return {};
    },

    async AdminDisableUser(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      user.enabled = false;
      user.modifiedAt = now();
      // Cognito revokes the user's tokens when it disables the user.
      revokeUser(user.username);
      return {};
    },

    async AdminEnableUser(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      user.enabled = true;
      user.modifiedAt = now();
      save();
      return {};
    },

    async AdminUserGlobalSignOut(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      revokeUser(user.username);
      return {};
    },

    // Implemented, served only once functions/routes.ts lists them.
    async AdminAddUserToGroup(input) {
      checkPool(input.UserPoolId);
      addToGroup(requireUser(input.Username), input.GroupName);
      return {};
    },

    async AdminRemoveUserFromGroup(input) {
      checkPool(input.UserPoolId);
      const user = requireUser(input.Username);
      user.groups = user.groups.filter((group) => group !== input.GroupName);
      save();
      return {};
    },
  };

  function addToGroup(user: CognitoUser, group: unknown): void {
    if (typeof group !== 'string' || !(USER_POOL_GROUPS as readonly string[]).includes(group)) {
      throw new CognitoError('ResourceNotFoundException', 'Group not found.');
    }
    if (!user.groups.includes(group)) user.groups.push(group);
    save();
  }

  const served = new Set<string>([...cognitoOperations.amplify, ...cognitoOperations.functions]);

  function sweepSessions(): void {
    const t = now();
    for (const [id, session] of sessions) if (session.expiresAt <= t) sessions.delete(id);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`[cognito] failure: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) {
        sendError(
          res,
          new CognitoError(
            'InternalErrorException',
            'Internal error of the local Cognito endpoint.',
            500,
          ),
        );
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers':
          req.headers['access-control-request-headers'] ??
          'content-type, x-amz-target, x-amz-user-agent, cache-control',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && pathname === `/${userPoolId}/.well-known/jwks.json`) {
      sendJson(res, 200, { keys: keys.map(publicJwk) }, 'application/json');
      return;
    }
    if (req.method === 'GET' && pathname === `/${userPoolId}/.well-known/openid-configuration`) {
      sendJson(
        res,
        200,
        {
          issuer,
          jwks_uri: `${issuer}/.well-known/jwks.json`,
          id_token_signing_alg_values_supported: ['RS256'],
          subject_types_supported: ['public'],
        },
        'application/json',
      );
      return;
    }
    if (req.method !== 'POST' || pathname !== '/') {
      sendError(
        res,
        new CognitoError(
          'UnknownOperationException',
          `No route for ${req.method ?? '?'} ${pathname}.`,
          404,
        ),
      );
      return;
    }
    const body = await readBody(req, 1024 * 1024);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith(COGNITO_TARGET_PREFIX)
      ? target.slice(COGNITO_TARGET_PREFIX.length)
      : target;
    const implementation = operations[operation];
    if (!served.has(operation) || implementation === undefined) {
      log(`[cognito] refused ${operation || '(no X-Amz-Target)'}: not emulated`);
      sendError(
        res,
        new CognitoError(
          'UnsupportedOperationException',
          `${operation || 'A request without X-Amz-Target'} is not emulated by the local Cognito endpoint. ` +
            `It implements exactly: ${[...served].join(', ')} (cognitoOperations in functions/routes.ts).`,
        ),
      );
      return;
    }
    let input: Record<string, unknown>;
    try {
      const parsed = JSON.parse((body ?? Buffer.alloc(0)).toString('utf8') || '{}') as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
      input = parsed as Record<string, unknown>;
    } catch {
      sendError(
        res,
        new CognitoError('SerializationException', 'The request body is not a JSON object.'),
      );
      return;
    }
    sweepSessions();
    try {
      const output = await implementation(input, {
        sourceIp: callerSource(input, req.socket.remoteAddress),
      });
      sendJson(res, 200, output, 'application/x-amz-json-1.1');
    } catch (error) {
      if (!(error instanceof CognitoError)) throw error;
      log(`[cognito] ${operation}: ${error.type} ${error.message}`);
      sendError(res, error);
    }
  }

  if (options.port !== undefined) await assertPortFree(options.port, 'local Cognito endpoint');
  const port = await listen(server, options.port ?? 0);
  const url = `http://127.0.0.1:${port}`;
  const available = missingTriggerFiles(triggers).length === 0;
  log(
    `[cognito] user pool ${userPoolId} (client ${clientId}) on ${url}` +
      (available ? '' : ' — custom-auth trigger modules missing: sign-in unavailable'),
  );
  return {
    url,
    port,
    region,
    userPoolId,
    clientId,
    issuer,
    jwks: () => ({ keys: keys.map(publicJwk) }),
    authAvailable: () => missingTriggerFiles(triggers).length === 0,
    addUserToGroup: (username, group) => addToGroup(requireUser(username), group),
    getUser: (username) => {
      const user = state.users[username.toLowerCase()];
      return user === undefined ? undefined : structuredClone(user);
    },
    signToken: (claims) => signJwt(claims, signingKey),
    stop: () => closeServer(server),
  };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage',
};

function sendJson(res: ServerResponse, status: number, body: unknown, type: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...CORS,
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: CognitoError): void {
  const text = JSON.stringify({ __type: error.type, message: error.message });
  res.writeHead(error.status, {
    ...CORS,
    'content-type': 'application/x-amz-json-1.1',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    'x-amzn-errortype': `${error.type}:`,
    'x-amzn-errormessage': encodeURIComponent(error.message),
  });
  res.end(text);
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(
  password: string,
  salt: Buffer,
  keylen: number,
  N: number,
  r: number,
  p: number,
) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keylen, { N, r, p }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A salted scrypt hash: `scrypt$N$r$p$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.keylen, SCRYPT.N, SCRYPT.r, SCRYPT.p);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(
    password,
    Buffer.from(salt, 'base64url'),
    expected.length,
    Number(n),
    Number(r),
    Number(p),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Verified against when there is no user, so an unknown name costs what a wrong password does. */
const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`;

function newSessionId(): string {
  return randomBytes(96).toString('base64url');
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined && entry !== null) out[key] = String(entry);
  }
  return out;
}

function optionalStringMap(value: unknown): Record<string, string> | undefined {
  return value === undefined || value === null ? undefined : stringMap(value);
}

function loadState(file: string | undefined): PoolState {
  if (file !== undefined && existsSync(file)) {
    const state = JSON.parse(readFileSync(file, 'utf8')) as PoolState;
    return {
      keys: state.keys ?? [],
      secret: state.secret ?? randomBytes(32).toString('hex'),
      users: state.users ?? {},
      refreshTokens: state.refreshTokens ?? {},
      revokedOrigins: state.revokedOrigins ?? [],
    };
  }
  return {
    keys: [],
    secret: randomBytes(32).toString('hex'),
    users: {},
    refreshTokens: {},
    revokedOrigins: [],
  };
}

function persistState(file: string, state: PoolState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
  renameSync(temporary, file);
}
