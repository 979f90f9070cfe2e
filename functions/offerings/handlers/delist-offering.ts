import { readSwitches } from '../../../shared/switches';
import { httpHandler } from '../../http';
import { delistOffering } from '../manage';
import { offeringsDeps } from '../offerings.deps';
import { offeringsRoutes } from '../offerings.routes';

/** POST /api/users/{id}/offering/delist/{offeringId} (the spec's GET; docs/api.md). */
export const handler = httpHandler(offeringsRoutes.delistOffering, ({ path, now }) =>
  delistOffering(offeringsDeps(), readSwitches(process.env), path.id, path.offeringId, now),
);
