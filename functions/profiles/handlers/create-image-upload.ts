import { httpHandler } from '../../http';
import { profilesRoutes } from '../profiles.routes';
import { createImageUpload } from '../profile-images';
import { profilesDeps } from '../profiles.deps';

/** POST /api/users/{id}/images/upload */
export const handler = httpHandler(
  profilesRoutes.createImageUpload,
  async ({ path, body, now }) => {
    const userId = path.id;
    return createImageUpload(profilesDeps(), { userId, body }, now);
  },
);
