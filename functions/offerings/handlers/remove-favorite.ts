import { readSwitches } from '../../../shared/switches';
import { httpHandler } from '../../http';
import { setFavorite } from '../manage';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** DELETE /api/users/{id}/favorites/{offeringId} */
export const handler = httpHandler(offeringsRoutes.removeFavorite, ({ path, now }) =>
  setFavorite(offeringsDeps(), readSwitches(process.env), path.id, path.offeringId, false, now),
);
