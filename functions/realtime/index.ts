/**
 * The realtime domain's public module (the live channel): publishing to a user or a topic, and
 * closing a user's connections (logout, block). Other domains import only this file.
 */
export {
  closeUserConnections,
  publishToTopic,
  publishToUser,
  publishToUserQuietly,
  type PublishDeps,
  type PublishResult,
} from './publish';
export type { WsEvent, WsEventType, WsResult } from './ws-event';
