import { httpHandler } from '../../core/http';
import { nickPathSchema } from '../../../shared/schemas/profiles';
import { getProfileByNick } from '../profiles';
import { profilesDeps } from '../profiles.deps';

/** GET /api/users/get-by-nickname/{nick} */
export const handler = httpHandler({ auth: 'public', path: nickPathSchema }, async ({ path }) =>
  getProfileByNick(profilesDeps(), path.nick),
);
