import { CognitoJwtVerifier } from 'aws-jwt-verify';
import type { Fetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { AuthContext } from './auth';
import { readEnv } from './env';
import { DomainError } from './errors';

/**
 * Verifies a Cognito access token in a handler, for the one place where API Gateway cannot do it
 * for us: the WebSocket `$connect` (a browser cannot send an Authorization header on a WebSocket,
 * so the token travels as a query parameter). Same checks as the HTTP API's JWT authorizer:
 * signature (the pool's JWKS), issuer, expiry, token_use 'access' and the web's client id.
 *
 * The JWKS comes from the pool's issuer URL. When the Cognito endpoint is configured (as the SDK
 * client's endpoint is, COGNITO_ENDPOINT), the JWKS is read from that endpoint instead: the issuer
 * inside the tokens stays the Cognito one.
 */
export type AccessTokenVerifier = (token: string) => Promise<AuthContext>;

/** How long a JWKS download may take before the handshake fails (the JWKS is then cached). */
const JWKS_TIMEOUT_MS = 3000;

/**
 * The JWKS download: WHATWG fetch (Node 24), so http and https endpoints alike. With an endpoint,
 * `https://cognito-idp.<region>.amazonaws.com/<pool>/…` is read from `<endpoint>/<pool>/…`.
 */
export function jwksFetcher(cognitoEndpoint: string | undefined): Fetcher {
  const endpoint = (cognitoEndpoint ?? '').replace(/\/+$/, '');
  return {
    async fetch(uri) {
      const target =
        endpoint === ''
          ? uri
          : uri.replace(/^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com/, endpoint);
      const response = await fetch(target, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`JWKS download answered ${response.status}: ${target}`);
      return response.arrayBuffer();
    },
  };
}

export function createAccessTokenVerifier(config: {
  userPoolId: string | undefined;
  clientId: string | undefined;
  cognitoEndpoint: string | undefined;
}): AccessTokenVerifier {
  const { userPoolId, clientId } = config;
  if (userPoolId === undefined || clientId === undefined) {
    throw new Error('USER_POOL_ID and USER_POOL_CLIENT_ID must be configured to verify tokens');
  }
  const verifier = CognitoJwtVerifier.create(
    { userPoolId, clientId, tokenUse: 'access' },
    { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher(config.cognitoEndpoint) }) },
  );
  return async (token) => {
    let payload: Record<string, unknown>;
    try {
      payload = (await verifier.verify(token)) as Record<string, unknown>;
    } catch (error) {
      throw new DomainError('unauthenticated', {
        message: 'Session Expired or not logged in',
        cause: error,
      });
    }
    const username = payload.username;
    if (typeof username !== 'string' || username === '') {
      throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
    }
    const groups = Array.isArray(payload['cognito:groups'])
      ? (payload['cognito:groups'] as unknown[]).map(String)
      : [];
    return { userId: username, email: undefined, groups, claims: payload };
  };
}

let deploymentVerifier: AccessTokenVerifier | undefined;

/**
 * The verifier of this deployment's pool and web client (USER_POOL_ID, USER_POOL_CLIENT_ID,
 * COGNITO_ENDPOINT), built once per container so its JWKS cache lives as long as the container.
 */
export function accessTokenVerifier(): AccessTokenVerifier {
  if (deploymentVerifier === undefined) {
    const env = readEnv();
    deploymentVerifier = createAccessTokenVerifier({
      userPoolId: env.userPoolId,
      clientId: env.userPoolClientId,
      cognitoEndpoint: env.cognitoEndpoint,
    });
  }
  return deploymentVerifier;
}

/**
 * The caller of a public route that answers more to a logged-in user (the optional bearer token
 * is verified here as the JWT authorizer would): a missing or bad token is a guest (null).
 */
export async function optionalCaller(
  headers: Record<string, string | undefined> | undefined,
): Promise<string | null> {
  const header = headers?.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (match === null) return null;
  try {
    return (await accessTokenVerifier()(match[1] as string)).userId;
  } catch {
    return null;
  }
}
