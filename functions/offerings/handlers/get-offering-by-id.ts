import { optionalCaller } from '../../core/access-token';
import { httpHandler } from '../../http';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';
import { getOfferingById } from '../queries';

/** POST /api/users/{id|-}/offering/getofferingbyid/{offeringId} (optional bearer token). */
export const handler = httpHandler(offeringsRoutes.getOfferingById, async ({ path, event, now }) =>
  getOfferingById(offeringsDeps(), await optionalCaller(event.headers), path.offeringId, now),
);
