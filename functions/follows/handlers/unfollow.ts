import { httpHandler } from '../../http';
import { followsRoutes } from '../follows.routes';
import { callerIdOf, setFollow } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/unfollow */
export const handler = httpHandler(followsRoutes.unfollow, async ({ body, auth, now }) =>
  setFollow(
    { repo: followsRepo() },
    { callerId: callerIdOf(auth), uid: body.uid, follow: false },
    now,
  ),
);
