/**
 * The notifications domain's public module: `notify()` (the one way other domains tell a user
 * something; idempotent per source event) and its dependencies. Nothing else of the domain is
 * importable from outside.
 */
export { notify, type NotifyDeps, type NotifyInput, type NotifyResult } from './notify';
export { notifyDeps } from './notifications.deps';
export type { NotificationActivity, NotificationPayload } from '../../shared/schemas/notifications';
// Fan-out of a new offering to the seller's followers (a workflow, off the request path).
export { FOLLOWER_FANOUT_WORKFLOW, startFollowerFanOut, type FanOutInput } from './fan-out';
