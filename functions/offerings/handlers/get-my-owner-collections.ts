import { httpHandler } from '../../http';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';
import { getMyOwnerCollections } from '../queries';

/** GET /api/users/{id}/offering/getmyownercollections */
export const handler = httpHandler(offeringsRoutes.getMyOwnerCollections, ({ path }) =>
  getMyOwnerCollections(offeringsDeps(), path.id),
);
