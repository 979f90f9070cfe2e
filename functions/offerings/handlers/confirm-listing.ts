import { httpHandler } from '../../http';
import { decideListing } from '../create-offering';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/users/{id}/offering/create/confirm {offeringId} */
export const handler = httpHandler(offeringsRoutes.confirmListing, ({ path, body, now }) =>
  decideListing(offeringsDeps(), path.id, body.offeringId, 'confirm', now),
);
