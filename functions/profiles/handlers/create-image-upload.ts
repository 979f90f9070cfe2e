import { httpHandler } from '../../core/http';
import { imageUploadBodySchema, profileUserPathSchema } from '../../../shared/schemas/profiles';
import { requireOwner } from '../profiles';
import { createImageUpload } from '../profile-images';
import { profilesDeps } from '../profiles.deps';

/** POST /api/users/{id}/images/upload */
export const handler = httpHandler(
  { auth: 'user', path: profileUserPathSchema, body: imageUploadBodySchema },
  async ({ path, body, auth, now }) => {
    const userId = requireOwner(auth, path.id);
    return createImageUpload(profilesDeps(), { userId, body }, now);
  },
);
