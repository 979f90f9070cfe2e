/**
 * Follows: key builders. Access patterns:
 *
 * | pattern                                 | key condition                                           | index |
 * |-----------------------------------------|---------------------------------------------------------|-------|
 * | does A follow B? (is-following/follower)| pk = FOLLOWING#<A>, sk = <B>                            | table |
 * | whom A follows                          | pk = FOLLOWING#<A>                                      | table |
 * | followers of B (paged, by follower id)  | gsi2pk = FOLLOWERS#<B> (gsi2sk = <A>)                   | gsi2  |
 *
 * One edge item per (follower, followed) pair, written with attribute_not_exists(pk) in the same
 * TransactWriteItems as the followed profile's followers_counter (and its sellers-index sort key),
 * so a double follow or unfollow changes nothing and the counter always equals the edges.
 */
export const FOLLOW_TYPE = 'follow';

export interface Key {
  pk: string;
  sk: string;
}

export function followKey(followerId: string, followedId: string): Key {
  return { pk: `FOLLOWING#${followerId}`, sk: followedId };
}

export function followingPartition(followerId: string): string {
  return `FOLLOWING#${followerId}`;
}

/** The index of the followers pattern. */
export const FOLLOWERS_INDEX = 'gsi2';

export function followersPartition(followedId: string): string {
  return `FOLLOWERS#${followedId}`;
}

export function followersIndexKeys(
  followerId: string,
  followedId: string,
): { gsi2pk: string; gsi2sk: string } {
  return { gsi2pk: followersPartition(followedId), gsi2sk: followerId };
}
