import { disconnect } from '../disconnect';
import { realtimeDeps } from '../realtime.deps';
import { connectionOf, wsHandler } from '../ws-handler';

/** WebSocket `$disconnect`. */
export const handler = wsHandler(async (event) => {
  await disconnect({ repo: realtimeDeps().repo }, connectionOf(event));
  return { statusCode: 200 };
});
