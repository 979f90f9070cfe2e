import { httpHandler } from '../../core/http';
import { addressPathSchema } from '../../../shared/schemas/addresses';
import { deleteAddress, ownerOf } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** DELETE /api/users/{id}/deleteaddress/{addressId} */
export const handler = httpHandler(
  { auth: 'user', path: addressPathSchema },
  async ({ path, auth }) =>
    deleteAddress(addressesDeps(), { userId: ownerOf(auth, path.id), addressId: path.addressId }),
);
