import { httpHandler } from '../../http';
import { followsRoutes } from '../follows.routes';
import { callerIdOf, setFollow } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/follow */
export const handler = httpHandler(followsRoutes.follow, async ({ body, auth, now }) =>
  setFollow(
    { repo: followsRepo() },
    { callerId: callerIdOf(auth), uid: body.uid, follow: true },
    now,
  ),
);
