import { httpHandler } from '../../http';
import { addressesRoutes } from '../addresses.routes';
import { listAddresses } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** GET /api/users/{id}/addresses */
export const handler = httpHandler(addressesRoutes.listAddresses, async ({ path }) =>
  listAddresses(addressesDeps(), { userId: path.id }),
);
