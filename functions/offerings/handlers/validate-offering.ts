import { httpHandler } from '../../http';
import { validateOffering } from '../manage';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/admin/offerings/{offeringId}/validate {decision, reason?} (admins) */
export const handler = httpHandler(offeringsRoutes.validateOffering, ({ path, body, now }) =>
  validateOffering(offeringsDeps(), path.offeringId, body, now),
);
