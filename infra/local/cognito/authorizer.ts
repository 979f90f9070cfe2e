import { CognitoJwtVerifier } from 'aws-jwt-verify';
import type { Authorizer } from '../http-gateway';
import type { Jwk } from './jwt';

/**
 * The local HTTP gateway's JWT authorizer, as API Gateway's HTTP API JWT authorizer behaves with
 * a Cognito issuer: the bearer token (with or without the `Bearer ` prefix) must be a valid access
 * token of the pool for one of the app clients (aws-jwt-verify's CognitoJwtVerifier, its JWKS
 * pre-loaded: no network), or the gateway answers 401 `{"message":"Unauthorized"}`. Claims reach
 * the handler as API Gateway passes them: every value a string, arrays flattened `[a b]`.
 * Like API Gateway it does NOT check revocation (RevokeToken/GlobalSignOut): only signature,
 * issuer, expiry, token_use and client.
 */
export interface CognitoAuthorizerOptions {
  userPoolId: string;
  clientId: string | string[];
  jwks: { keys: Jwk[] };
}

export function cognitoAuthorizer(options: CognitoAuthorizerOptions): Authorizer {
  const verifier = CognitoJwtVerifier.create({
    userPoolId: options.userPoolId,
    tokenUse: 'access',
    clientId: options.clientId,
  });
  verifier.cacheJwks(options.jwks as unknown as Parameters<typeof verifier.cacheJwks>[0]);
  return async (_route, request) => {
    const header = request.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value.trim() === '') return null;
    const token = value.replace(/^Bearer\s+/i, '').trim();
    try {
      const payload = await verifier.verify(token);
      const claims = flattenClaims(payload as Record<string, unknown>);
      // API Gateway sends `scopes: null` for routes without authorization scopes (all of ours);
      // the token's scopes stay readable in the `scope` claim.
      return { jwt: { claims, scopes: null } };
    } catch {
      return null;
    }
  };
}

/** API Gateway's rendering of JWT claims in the event: strings, arrays as `[a b]`. */
export function flattenClaims(payload: Record<string, unknown>): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) claims[name] = `[${value.map(String).join(' ')}]`;
    else if (typeof value === 'object') claims[name] = JSON.stringify(value);
    else claims[name] = String(value);
  }
  return claims;
}
