import { optionalCaller } from '../../core/access-token';
import { httpHandler } from '../../http';
import { bidsDeps } from '../bids.deps';
import { bidsRoutes } from '../bids.routes';
import { getBidsByOffering } from '../queries';

/** GET /api/users/{id|-}/bid/getbyofferingid/{offeringid} (optional bearer token). */
export const handler = httpHandler(bidsRoutes.getBids, async ({ path, event, now }) =>
  getBidsByOffering(
    bidsDeps(),
    { callerId: await optionalCaller(event.headers), offeringId: path.offeringid },
    now,
  ),
);
