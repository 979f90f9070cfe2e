import { connectionsClient, dynamoDocumentClient } from '../core/clients';
import { readEnv, type HandlerEnv } from '../core/env';
import { createRealtimeRepo, type RealtimeRepo } from './realtime.repo';
import { createConnectionSender, type ConnectionSender } from './realtime.sender';

export interface RealtimeDeps {
  repo: RealtimeRepo;
  sender: ConnectionSender;
}

/** The live channel's adapters, configured from the environment (TABLE_NAME, WS_CONNECTIONS_ENDPOINT). */
export function realtimeDeps(env: HandlerEnv = readEnv()): RealtimeDeps {
  return {
    repo: createRealtimeRepo({ doc: dynamoDocumentClient(env), tableName: env.tableName }),
    sender: createConnectionSender(() => connectionsClient(env)),
  };
}
