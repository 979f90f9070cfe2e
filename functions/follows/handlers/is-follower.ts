import { httpHandler } from '../../core/http';
import { isFollowerBodySchema } from '../../../shared/schemas/follows';
import { callerIdOf, isFollower } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/check/is-follower */
export const handler = httpHandler(
  { auth: 'user', body: isFollowerBodySchema },
  async ({ body, auth }) =>
    isFollower({ repo: followsRepo() }, { callerId: callerIdOf(auth), follower: body.follower }),
);
