import { DomainError } from '../core/errors';
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
 *
 * Today (before accounts) it is the spec's `userid` query parameter, taken as given, which means a
 * client can claim any user's channel: publish nothing private before the accounts issue replaces
 * `identifyByQuery` in handlers/connect.ts with a verifier that reads the access token (a `token`
 * query parameter, or the `Sec-WebSocket-Protocol` header, since browsers cannot set Authorization
 * on a WebSocket), verifies it (aws-jwt-verify, as the HTTP API does), and throws
 * DomainError('unauthenticated') (401, the handshake is refused) when `userid` is not its `sub`.
 */
export type IdentifyConnection = (request: ConnectRequest) => Promise<string>;

const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const identifyByQuery: IdentifyConnection = async (request) => {
  const userid = request.query.userid;
  if (userid === undefined || userid === '' || userid === GUEST_USER_ID) return GUEST_USER_ID;
  if (!USER_ID.test(userid)) {
    throw new DomainError('invalid_request', {
      message: 'The userid query parameter is not valid.',
      fields: { userid: 'forms.validation.invalid' },
    });
  }
  return userid;
};

/** `$connect` (spec 001 §7): stores the connection for its user, or as a guest. */
export async function connect(
  deps: { repo: Pick<RealtimeRepo, 'putConnection'>; identify: IdentifyConnection },
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
  return { userId };
}
