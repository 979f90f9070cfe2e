import { notifyFollowersPage } from '../fan-out';
import { fanOutDeps } from '../fan-out.deps';

/**
 * Workflow task `notifyFollowersPage` (infra/workflows/follower-fanout.asl.json): one page of a
 * seller's followers told about a new offering; answers the workflow's next state.
 */
export const handler = async (event: unknown) =>
  notifyFollowersPage(fanOutDeps(), event, new Date());
