import { ping } from '../ping';
import { realtimeDeps } from '../realtime.deps';
import { connectionOf, wsHandler } from '../ws-handler';

/** WebSocket route `ping` (`{"action":"ping"}` every 120 s): refreshes the ttl, answers pong. */
export const handler = wsHandler(async (event, now) => {
  await ping(realtimeDeps(), connectionOf(event), now);
  return { statusCode: 200 };
});
