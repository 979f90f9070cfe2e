import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AuthLevel } from './route';
import { DomainError } from './errors';

/**
 * The caller, from the JWT claims that API Gateway's JWT authorizer (in AWS) or the local gateway
 * (on the twin) verified before the handler runs. Handlers never parse tokens themselves.
 */
export interface AuthContext {
  userId: string;
  email: string | undefined;
  groups: string[];
  claims: Record<string, unknown>;
}

interface JwtAuthorizerContext {
  jwt?: { claims?: Record<string, unknown> };
}

/**
 * Our user id is the Cognito *username* (a ULID we choose at sign-up), carried by access tokens as
 * `username`. Cognito's `sub` is a UUID it generates, so it is never our id.
 */
export function authFromEvent(event: APIGatewayProxyEventV2): AuthContext | null {
  const authorizer = (event.requestContext as { authorizer?: JwtAuthorizerContext } | undefined)
    ?.authorizer;
  const claims = authorizer?.jwt?.claims;
  const username = claims?.username;
  if (claims === undefined || typeof username !== 'string' || username === '') return null;
  const rawGroups = claims['cognito:groups'];
  const groups = Array.isArray(rawGroups)
    ? rawGroups.map(String)
    : typeof rawGroups === 'string'
      ? rawGroups
          .replace(/^\[|\]$/g, '')
          .split(/[\s,]+/)
          .filter(Boolean)
      : [];
  return {
    userId: username,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    groups,
    claims,
  };
}

/** Throws 401 when the level needs a user and there is none, 403 when it needs an admin. */
export function requireAuth(level: AuthLevel, auth: AuthContext | null): void {
  if (level === 'public') return;
  if (auth === null)
    throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
  if (level === 'admin' && !auth.groups.includes('admin')) {
    throw new DomainError('forbidden', { message: 'This call is for administrators.' });
  }
}

/** The caller of a 'user' or 'admin' call (the middleware let no guest through). */
export function callerId(auth: AuthContext | null): string {
  if (auth === null) throw new Error('auth middleware let a guest through');
  return auth.userId;
}
