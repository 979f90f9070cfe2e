import { callerId } from '../../core/auth';
import { invocationBudget } from '../../core/clock';
import { httpHandler } from '../../http';
import { bidsDeps } from '../bids.deps';
import { bidsRoutes } from '../bids.routes';
import { cancelBid } from '../place';

/** POST /api/users/{id}/bid/cancel/{offeringid}. */
export const handler = httpHandler(bidsRoutes.cancelBid, async ({ auth, path, now, remainingMs }) =>
  cancelBid(
    bidsDeps(),
    { callerId: callerId(auth), offeringId: path.offeringid },
    now,
    invocationBudget(remainingMs),
  ),
);
