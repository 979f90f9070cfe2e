import { accessTokenVerifier } from '../../core/access-token';
import { sessionCheck } from '../../accounts/index';
import { connect, identifyByToken, type IdentifyConnection } from '../connect';
import { realtimeDeps } from '../realtime.deps';
import { connectRequestOf, wsHandler } from '../ws-handler';

let identify: IdentifyConnection | undefined;

function identifyConnection(): IdentifyConnection {
  identify ??= identifyByToken({ verify: accessTokenVerifier(), checkSession: sessionCheck() });
  return identify;
}

/**
 * WebSocket `$connect` (spec 001 §7: `?userid=<id>`, `<annon>` for guests; a user's connection
 * adds `&token=<access token>`, see identifyByToken). A refused handshake answers 401/403.
 */
export const handler = wsHandler(async (event, now) => {
  await connect(
    { repo: realtimeDeps().repo, identify: identifyConnection() },
    connectRequestOf(event),
    now,
  );
  return { statusCode: 200 };
});
