import { httpHandler } from '../../http';
import { getListingStatus } from '../create-offering';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/users/{id}/offering/create/status {offeringId} */
export const handler = httpHandler(offeringsRoutes.listingStatus, ({ path, body }) =>
  getListingStatus(offeringsDeps(), path.id, body.offeringId),
);
