import { httpHandler } from '../../http';
import { followsRoutes } from '../follows.routes';
import { callerIdOf, isFollowing } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/check/is-following */
export const handler = httpHandler(followsRoutes.isFollowing, async ({ body, auth }) =>
  isFollowing({ repo: followsRepo() }, { callerId: callerIdOf(auth), followed: body.followed }),
);
