import { httpHandler } from '../../http';
import { profilesRoutes } from '../profiles.routes';
import { getProfileByNick } from '../profiles';
import { profilesDeps } from '../profiles.deps';

/** GET /api/users/get-by-nickname/{nick} */
export const handler = httpHandler(profilesRoutes.getByNickname, async ({ path }) =>
  getProfileByNick(profilesDeps(), path.nick),
);
