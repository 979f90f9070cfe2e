import { httpHandler } from '../../core/http';
import { imageConfirmBodySchema, profileUserPathSchema } from '../../../shared/schemas/profiles';
import { requireOwner } from '../profiles';
import { confirmImage } from '../profile-images';
import { profilesDeps } from '../profiles.deps';

/** POST /api/users/{id}/images */
export const handler = httpHandler(
  { auth: 'user', path: profileUserPathSchema, body: imageConfirmBodySchema },
  async ({ path, body, auth, now }) => {
    const userId = requireOwner(auth, path.id);
    return confirmImage(profilesDeps(), { userId, body }, now);
  },
);
