import { createAccessTokenVerifier } from '../../core/access-token';
import { readEnv } from '../../core/env';
import { sessionCheck } from '../../sessions/sessions.deps';
import { connect, identifyByToken, type IdentifyConnection } from '../connect';
import { realtimeDeps } from '../realtime.deps';
import { connectRequestOf, wsHandler } from '../ws-handler';

let identify: IdentifyConnection | undefined;

/** Built once per container: the verifier caches the pool's JWKS. */
function identifyConnection(): IdentifyConnection {
  if (identify === undefined) {
    const env = readEnv();
    identify = identifyByToken({
      verify: createAccessTokenVerifier({
        userPoolId: env.userPoolId,
        clientId: env.userPoolClientId,
        cognitoEndpoint: env.cognitoEndpoint,
      }),
      checkSession: sessionCheck(),
    });
  }
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
