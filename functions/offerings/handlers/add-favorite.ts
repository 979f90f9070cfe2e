import { readSwitches } from '../../../shared/switches';
import { httpHandler } from '../../http';
import { setFavorite } from '../manage';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** PUT /api/users/{id}/favorites/{offeringId} */
export const handler = httpHandler(offeringsRoutes.addFavorite, ({ path, now }) =>
  setFavorite(offeringsDeps(), readSwitches(process.env), path.id, path.offeringId, true, now),
);
