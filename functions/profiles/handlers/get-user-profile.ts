import { httpHandler } from '../../core/http';
import { profileUserPathSchema } from '../../../shared/schemas/profiles';
import { getOwnProfile, requireOwner } from '../profiles';
import { profilesDeps } from '../profiles.deps';

/** GET /api/users/{id}/user-profile */
export const handler = httpHandler(
  { auth: 'user', path: profileUserPathSchema },
  async ({ path, auth }) => getOwnProfile(profilesDeps(), requireOwner(auth, path.id)),
);
