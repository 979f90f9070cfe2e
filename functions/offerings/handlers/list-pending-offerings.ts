import { httpHandler } from '../../http';
import { listPendingOfferings } from '../manage';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** GET /api/admin/offerings?cursor (admins) */
export const handler = httpHandler(offeringsRoutes.listPendingOfferings, ({ query, now }) =>
  listPendingOfferings(offeringsDeps(), query.cursor, now),
);
