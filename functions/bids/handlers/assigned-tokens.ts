import { callerId } from '../../core/auth';
import { httpHandler } from '../../http';
import { bidsDeps } from '../bids.deps';
import { bidsRoutes } from '../bids.routes';
import { getAssignedTokens } from '../queries';

/** POST /api/users/{id}/offering/getassignedtokens. */
export const handler = httpHandler(bidsRoutes.assignedTokens, async ({ auth, body }) =>
  getAssignedTokens(bidsDeps(), { callerId: callerId(auth), offeringId: body.offeringid }),
);
