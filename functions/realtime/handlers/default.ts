import { handleMessage } from '../handle-message';
import { realtimeDeps } from '../realtime.deps';
import { bodyOf, connectionOf, wsHandler } from '../ws-handler';

/** WebSocket `$default`: subscribe/unsubscribe to topics; anything else answers an error message. */
export const handler = wsHandler(async (event, now) => {
  await handleMessage(realtimeDeps(), { ...connectionOf(event), body: bodyOf(event) }, now);
  return { statusCode: 200 };
});
