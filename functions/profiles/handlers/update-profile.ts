import { httpHandler } from '../../core/http';
import { profileUserPathSchema, updateProfileSchema } from '../../../shared/schemas/profiles';
import { requireOwner, updateProfile } from '../profiles';
import { profilesDeps } from '../profiles.deps';

/** PUT /api/users/{id} */
export const handler = httpHandler(
  { auth: 'user', path: profileUserPathSchema, body: updateProfileSchema },
  async ({ path, body, auth, now }) => {
    const userId = requireOwner(auth, path.id);
    return updateProfile(profilesDeps(), { userId, body }, now);
  },
);
