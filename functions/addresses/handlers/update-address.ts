import { httpHandler } from '../../core/http';
import { addressBodySchema, addressPathSchema } from '../../../shared/schemas/addresses';
import { ownerOf, updateAddress } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** PUT /api/users/{id}/updateaddress/{addressId} */
export const handler = httpHandler(
  { auth: 'user', path: addressPathSchema, body: addressBodySchema },
  async ({ path, body, auth, now }) =>
    updateAddress(
      addressesDeps(),
      { userId: ownerOf(auth, path.id), addressId: path.addressId, address: body.address },
      now,
    ),
);
