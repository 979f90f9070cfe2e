import { bidsDeps } from '../bids.deps';
import { followUpSchema, performFollowUp } from '../follow-up';

/**
 * Workflow task `bidEvents` (infra/workflows/bid-events.asl.json): what follows one accepted bid
 * or cancellation; throws when a step failed, so the workflow's retry repeats it (the
 * notifications are keyed by the bid's log line: nobody is told twice).
 */
export const handler = async (event: unknown) => {
  await performFollowUp(bidsDeps(), followUpSchema.parse(event), new Date());
  return {};
};
