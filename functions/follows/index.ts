/**
 * The follows domain's public module. No other domain needs follows yet; its use cases and
 * types are listed here for the next that does.
 */
export { isFollower, isFollowing, setFollow, type FollowsDeps } from './follows';
