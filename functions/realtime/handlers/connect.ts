import { connect, identifyByQuery } from '../connect';
import { realtimeDeps } from '../realtime.deps';
import { connectRequestOf, wsHandler } from '../ws-handler';

/**
 * WebSocket `$connect` (spec 001 §7: `?userid=<id>`, `<annon>` for guests). Connection auth is the
 * `identify` step: the accounts issue swaps identifyByQuery for the JWT verifier (see connect.ts).
 */
export const handler = wsHandler(async (event, now) => {
  await connect(
    { repo: realtimeDeps().repo, identify: identifyByQuery },
    connectRequestOf(event),
    now,
  );
  return { statusCode: 200 };
});
