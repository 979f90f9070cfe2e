import { optionalCaller } from '../../core/access-token';
import { httpHandler } from '../../http';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';
import { getOfferings } from '../queries';

/** POST /api/users/{id|-}/offering/getofferings (optional bearer token: invitations). */
export const handler = httpHandler(offeringsRoutes.getOfferings, async ({ body, event, now }) =>
  getOfferings(
    offeringsDeps(),
    body.invited === true ? await optionalCaller(event.headers) : null,
    body,
    now,
  ),
);
