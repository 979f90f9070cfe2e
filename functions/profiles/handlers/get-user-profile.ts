import { httpHandler } from '../../http';
import { profilesRoutes } from '../profiles.routes';
import { getOwnProfile } from '../profiles';
import { profilesDeps } from '../profiles.deps';

/** GET /api/users/{id}/user-profile */
export const handler = httpHandler(profilesRoutes.getUserProfile, async ({ path }) =>
  getOwnProfile(profilesDeps(), path.id),
);
