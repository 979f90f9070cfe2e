import { cognitoClient, dynamoDocumentClient } from '../core/clients';
import { readEnv } from '../core/env';
import { logger } from '../core/logger';
import { closeUserConnections } from '../realtime/index';
import { readAccountStatus } from './accounts.repo';
import { createSessionCheck, type SessionCheck, type SessionsDeps } from './sessions';
import { createSessionsStore } from './sessions.repo';
import { createCognitoSessions } from './sessions.identity';

/** The real per-call session check (the HTTP middleware's default for 'user'/'admin' routes). */
export function sessionCheck(): SessionCheck {
  return createSessionCheck((userId) => {
    const env = readEnv();
    return readAccountStatus({ doc: dynamoDocumentClient(env), tableName: env.tableName }, userId);
  });
}

/** Logout, block and unblock's real dependencies, from the environment. */
export function sessionsDeps(): SessionsDeps {
  const env = readEnv();
  return {
    store: createSessionsStore({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    directory: createCognitoSessions({ client: cognitoClient(env), userPoolId: env.userPoolId }),
    live: {
      async closeUserConnections(userId) {
        // Functions without the live channel (no WS_CONNECTIONS_ENDPOINT: its route is not
        // `live`) cannot reach @connections; every route that ends sessions is `live`.
        if (env.wsConnectionsEndpoint === undefined) {
          logger.warn('live channel not configured: connections stay open', { userId });
          return;
        }
        await closeUserConnections(userId);
      },
    },
  };
}
