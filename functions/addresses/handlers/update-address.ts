import { httpHandler } from '../../http';
import { addressesRoutes } from '../addresses.routes';
import { updateAddress } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** PUT /api/users/{id}/updateaddress/{addressId} */
export const handler = httpHandler(addressesRoutes.updateAddress, async ({ path, body, now }) =>
  updateAddress(
    addressesDeps(),
    { userId: path.id, addressId: path.addressId, address: body.address },
    now,
  ),
);
