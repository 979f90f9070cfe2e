import { httpHandler } from '../../http';
import { followsRoutes } from '../follows.routes';
import { callerIdOf, isFollower } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/check/is-follower */
export const handler = httpHandler(followsRoutes.isFollower, async ({ body, auth }) =>
  isFollower({ repo: followsRepo() }, { callerId: callerIdOf(auth), follower: body.follower }),
);
