import { httpHandler } from '../../http';
import { profilesRoutes } from '../profiles.routes';
import { updateProfile } from '../profiles';
import { profilesDeps } from '../profiles.deps';

/** PUT /api/users/{id} */
export const handler = httpHandler(profilesRoutes.updateProfile, async ({ path, body, now }) => {
  const userId = path.id;
  return updateProfile(profilesDeps(), { userId, body }, now);
});
