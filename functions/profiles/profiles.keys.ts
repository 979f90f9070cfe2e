/**
 * Profiles: key builders. Access patterns:
 *
 * | pattern                                   | key condition                                   | index |
 * |-------------------------------------------|-------------------------------------------------|-------|
 * | profile by user id                        | pk = USER#<id>, sk = PROFILE                    | table |
 * | sellers by followers_counter, descending  | gsi1pk = SELLERS, ScanIndexForward = false      | gsi1  |
 * | profile by nick (get-by-nickname)         | accounts' NICK#<nick> guard → user id, then ↑   | table |
 *
 * Only sellers carry gsi1 keys (a sparse index): the directory lists sellers only (spec 000 §1).
 * gsi1sk = <followers_counter, 12 digits zero-padded>#<user id>, so equal counters fall back to a
 * stable order and the counter update rewrites the sort key in the same write.
 */
export const PROFILE_TYPE = 'profile';

export function profileKey(userId: string): { pk: string; sk: string } {
  return { pk: `USER#${userId}`, sk: 'PROFILE' };
}

export const SELLERS_PARTITION = 'SELLERS';
const COUNTER_DIGITS = 12;

export function sellerIndexKeys(
  userId: string,
  followersCounter: number,
): { gsi1pk: string; gsi1sk: string } {
  if (!Number.isSafeInteger(followersCounter) || followersCounter < 0) {
    throw new RangeError(
      `followers counter must be a non-negative integer, got ${followersCounter}`,
    );
  }
  return {
    gsi1pk: SELLERS_PARTITION,
    gsi1sk: `${String(followersCounter).padStart(COUNTER_DIGITS, '0')}#${userId}`,
  };
}
