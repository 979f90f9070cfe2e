/**
 * The follows domain's public module: its use cases and types, and the paged list of a user's
 * followers the notifications' fan-out reads (`listFollowerIds`).
 */
export {
  isFollower,
  isFollowing,
  listFollowerIds,
  MAX_FOLLOWERS_PAGE,
  setFollow,
  type FollowsDeps,
} from './follows';
