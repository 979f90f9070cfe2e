import { httpHandler } from '../../http';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';
import { getOwnerCollections } from '../queries';

/** POST /api/users/{id|-}/offering/getownercollections {nick} */
export const handler = httpHandler(offeringsRoutes.getOwnerCollections, ({ body }) =>
  getOwnerCollections(offeringsDeps(), body.nick),
);
