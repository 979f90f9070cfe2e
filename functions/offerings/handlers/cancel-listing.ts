import { httpHandler } from '../../http';
import { decideListing } from '../create-offering';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/users/{id}/offering/create/cancel {offeringId} */
export const handler = httpHandler(offeringsRoutes.cancelListing, ({ path, body, now }) =>
  decideListing(offeringsDeps(), path.id, body.offeringId, 'cancel', now),
);
