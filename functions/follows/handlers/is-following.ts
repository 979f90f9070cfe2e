import { httpHandler } from '../../core/http';
import { isFollowingBodySchema } from '../../../shared/schemas/follows';
import { callerIdOf, isFollowing } from '../follows';
import { followsRepo } from '../follows.deps';

/** POST /api/rels/check/is-following */
export const handler = httpHandler(
  { auth: 'user', body: isFollowingBodySchema },
  async ({ body, auth }) =>
    isFollowing({ repo: followsRepo() }, { callerId: callerIdOf(auth), followed: body.followed }),
);
