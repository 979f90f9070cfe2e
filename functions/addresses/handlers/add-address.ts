import { httpHandler, Reply } from '../../core/http';
import { addressBodySchema, userPathSchema } from '../../../shared/schemas/addresses';
import { addAddress, ownerOf } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** POST /api/users/{id}/addaddress */
export const handler = httpHandler(
  { auth: 'user', path: userPathSchema, body: addressBodySchema },
  async ({ path, body, auth, now }) => {
    const userId = ownerOf(auth, path.id);
    return new Reply(
      201,
      await addAddress(addressesDeps(), { userId, address: body.address }, now),
    );
  },
);
