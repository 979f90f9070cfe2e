import type { AccessTokenVerifier } from '../core/access-token';
import { DomainError } from '../core/errors';
import type { SessionCheck } from '../core/http';
import { GUEST_USER_ID } from '../../shared/realtime/messages';
import { connectionTtl } from './realtime.rules';
import type { RealtimeRepo } from './realtime.repo';

/** What `$connect` knows about a new connection. */
export interface ConnectRequest {
  connectionId: string;
  /** Epoch ms. */
  connectedAt: number;
  query: Readonly<Record<string, string>>;
  headers: Readonly<Record<string, string>>;
}

/**
 * Who opens a connection: a user id, or GUEST_USER_ID. THE place where connection auth lives.
 */
export type IdentifyConnection = (request: ConnectRequest) => Promise<string>;

const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Connection auth (spec 001 §7 keeps its `userid` query parameter, `<annon>` for guests). A
 * browser cannot set an Authorization header on a WebSocket, so a user's connection carries its
 * Cognito access token as the `token` query parameter, verified as the HTTP API's authorizer
 * verifies it, then the same per-call session check as 'user' routes (blocked 403, revoked 401).
 * The channel is the token's user: a `userid` naming anyone else is refused (403), and a `userid`
 * without a token is refused (401) instead of trusted. Without both, the connection is a guest's.
 */
export function identifyByToken(deps: {
  verify: AccessTokenVerifier;
  checkSession: SessionCheck;
}): IdentifyConnection {
  return async (request) => {
    const userid = request.query.userid;
    const claimed =
      userid === undefined || userid === '' || userid === GUEST_USER_ID ? null : userid;
    if (claimed !== null && !USER_ID.test(claimed)) {
      throw new DomainError('invalid_request', {
        message: 'The userid query parameter is not valid.',
        fields: { userid: 'forms.validation.invalid' },
      });
    }
    const token = request.query.token;
    if (token === undefined || token === '') {
      if (claimed === null) return GUEST_USER_ID;
      throw new DomainError('unauthenticated', { message: 'Session Expired or not logged in' });
    }
    const auth = await deps.verify(token);
    await deps.checkSession(auth);
    if (claimed !== null && claimed !== auth.userId) {
      throw new DomainError('forbidden', { message: "This is another user's channel." });
    }
    return auth.userId;
  };
}

/** `$connect` (spec 001 §7): stores the connection for its user, or as a guest. */
export async function connect(
  deps: {
    repo: Pick<RealtimeRepo, 'putConnection' | 'deleteConnection'>;
    identify: IdentifyConnection;
  },
  request: ConnectRequest,
  now: Date,
): Promise<{ userId: string }> {
  const userId = await deps.identify(request);
  await deps.repo.putConnection({
    connectionId: request.connectionId,
    userId,
    connectedAt: new Date(request.connectedAt).toISOString(),
    ttl: connectionTtl(request.connectedAt, now),
  });
  if (userId !== GUEST_USER_ID) {
    // A logout or block between the check above and the put would miss this connection when it
    // closes the user's connections: checking again after the put closes that window (the
    // second read is strongly consistent, and the logout revokes before it lists connections).
    try {
      await deps.identify(request);
    } catch (error) {
      await deps.repo.deleteConnection(request.connectionId);
      throw error;
    }
  }
  return { userId };
}
