import { httpHandler } from '../../http';
import { addressesRoutes } from '../addresses.routes';
import { Reply } from '../../core/http';
import { addAddress } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** POST /api/users/{id}/addaddress */
export const handler = httpHandler(addressesRoutes.addAddress, async ({ path, body, now }) => {
  const userId = path.id;
  return new Reply(201, await addAddress(addressesDeps(), { userId, address: body.address }, now));
});
