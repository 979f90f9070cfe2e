import { httpHandler } from '../../core/http';
import { userPathSchema } from '../../../shared/schemas/addresses';
import { listAddresses, ownerOf } from '../addresses';
import { addressesDeps } from '../addresses.deps';

/** GET /api/users/{id}/addresses */
export const handler = httpHandler({ auth: 'user', path: userPathSchema }, async ({ path, auth }) =>
  listAddresses(addressesDeps(), { userId: ownerOf(auth, path.id) }),
);
