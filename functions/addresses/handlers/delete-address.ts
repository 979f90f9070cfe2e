import { httpHandler } from '../../http';
import { addressesRoutes } from '../addresses.routes';
import { deleteAddress } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** DELETE /api/users/{id}/deleteaddress/{addressId} */
export const handler = httpHandler(addressesRoutes.deleteAddress, async ({ path }) =>
  deleteAddress(addressesDeps(), { userId: path.id, addressId: path.addressId }),
);
