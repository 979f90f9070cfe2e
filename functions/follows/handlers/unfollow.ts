import { httpHandler } from '../../core/http';
import { followBodySchema } from '../../../shared/schemas/follows';
import { callerIdOf, setFollow } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/unfollow */
export const handler = httpHandler(
  { auth: 'user', body: followBodySchema },
  async ({ body, auth, now }) =>
    setFollow(
      { repo: followsRepo() },
      { callerId: callerIdOf(auth), uid: body.uid, follow: false },
      now,
    ),
);
