import { httpHandler } from '../../http';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';
import { getMyOfferings } from '../queries';

/** POST /api/users/{id}/offering/getmyofferings {status, last} */
export const handler = httpHandler(offeringsRoutes.getMyOfferings, ({ path, body, now }) =>
  getMyOfferings(offeringsDeps(), path.id, body.status, body.last, now),
);
