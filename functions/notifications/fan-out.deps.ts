import { startWorkflow } from '../core/workflows';
import { listFollowerIds } from '../follows/index';
import type { FanOutDeps } from './fan-out';
import { notifyDeps } from './notifications.deps';
import { notify } from './notify';

/** The fan-out task's real dependencies: follows' paged followers, notify(), Step Functions. */
export function fanOutDeps(): FanOutDeps {
  const deps = notifyDeps();
  return {
    followers: (sellerId, page) => listFollowerIds(sellerId, page),
    notify: (input, now) => notify(deps, input, now),
    startWorkflow,
  };
}
