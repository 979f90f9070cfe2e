import { httpHandler } from '../../http';
import { getListingContext } from '../create-offering';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** GET /api/users/{id}/offering/listing-context/{itemId} */
export const handler = httpHandler(offeringsRoutes.listingContext, ({ path }) =>
  getListingContext(offeringsDeps(), path.id, path.itemId),
);
