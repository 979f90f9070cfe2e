import { profileKey, sellerIndexKeys } from './profiles.keys';
import type { UpdateIntent } from './account-profile';

/**
 * What the follows domain needs from profiles (as account-profile.ts does for accounts): the key to
 * read a profile's counter state, and the update that moves followers_counter by one together with
 * the sellers directory's sort key (gsi1sk), conditioned on the value read. The follows repo runs
 * the update inside its own transaction with the follow edge; a lost race fails the condition and
 * is retried with a fresh read, so no increment is ever lost and the counter never goes below 0.
 */
export interface CounterState {
  followers_counter: number;
  is_seller: boolean;
}

export function counterReadKey(userId: string): { pk: string; sk: string } {
  return profileKey(userId);
}

export const COUNTER_PROJECTION = 'followers_counter, is_seller';

export function counterStateOf(item: Record<string, unknown>): CounterState {
  const raw = Number(item.followers_counter ?? 0);
  return {
    followers_counter: Number.isSafeInteger(raw) && raw > 0 ? raw : 0,
    is_seller: item.is_seller === true,
  };
}

/** The counter after a follow (+1) or an unfollow (-1), never below 0. */
export function nextCounter(current: number, delta: 1 | -1): number {
  return Math.max(0, current + delta);
}

export function followersCounterUpdate(
  userId: string,
  state: CounterState,
  delta: 1 | -1,
): UpdateIntent {
  const next = nextCounter(state.followers_counter, delta);
  const values: Record<string, unknown> = {
    ':next': next,
    ':seller': state.is_seller,
  };
  let set = 'SET followers_counter = :next';
  if (state.is_seller) {
    values[':sk'] = sellerIndexKeys(userId, next).gsi1sk;
    set += ', gsi1sk = :sk';
  }
  // A counter never written yet reads as 0.
  const current =
    state.followers_counter === 0
      ? '(attribute_not_exists(followers_counter) OR followers_counter = :current)'
      : 'followers_counter = :current';
  values[':current'] = state.followers_counter;
  const seller = state.is_seller
    ? 'is_seller = :seller'
    : '(attribute_not_exists(is_seller) OR is_seller = :seller)';
  return {
    Key: profileKey(userId),
    UpdateExpression: set,
    ConditionExpression: `attribute_exists(pk) AND ${current} AND ${seller}`,
    ExpressionAttributeValues: values,
  };
}
