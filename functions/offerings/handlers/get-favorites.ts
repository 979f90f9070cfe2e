import { httpHandler } from '../../http';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';
import { getFavorites } from '../queries';

/** GET /api/users/{id}/favorites?cursor */
export const handler = httpHandler(offeringsRoutes.getFavorites, ({ path, query, now }) =>
  getFavorites(offeringsDeps(), path.id, query.cursor, now),
);
