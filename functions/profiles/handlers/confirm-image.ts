import { httpHandler } from '../../http';
import { profilesRoutes } from '../profiles.routes';
import { confirmImage } from '../profile-images';
import { profilesDeps } from '../profiles.deps';

/** POST /api/users/{id}/images */
export const handler = httpHandler(profilesRoutes.confirmImage, async ({ path, body, now }) => {
  const userId = path.id;
  return confirmImage(profilesDeps(), { userId, body }, now);
});
