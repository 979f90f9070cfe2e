import type { UserOption } from '../../shared/schemas/profiles';
import { PROFILE_TYPE, profileKey, sellerIndexKeys } from './profiles.keys';
import type { ProfileRecord } from './profiles.repo';

/**
 * The profiles domain's transaction pieces: write intents other domains run inside their own
 * transactions. The profile's keys and shape stay here; the other repos only execute what these
 * return.
 *
 * For accounts: what the accounts domain needs from profiles, as write intents it runs inside its own
 * transactions (sign-up writes guards, account and profile atomically; a verified phone pin sets
 * the account's flag and the profile's is_verified together). The profile's keys and shape stay
 * here; the accounts repo only executes what these return.
 */
export interface NewProfileInput {
  id: string;
  nick: string;
  user_option: UserOption;
  name: string;
  surname: string | null;
  entity_name: string | null;
}

/** A new user's profile: not verified, not a seller, no counters yet. */
export function newProfileRecord(input: NewProfileInput, now: Date): ProfileRecord {
  return {
    id: input.id,
    nick: input.nick,
    name: input.name,
    surname: input.surname,
    entity_name: input.entity_name,
    user_option: input.user_option,
    title: null,
    slogan: null,
    summary: null,
    profile_image: null,
    header_image: null,
    followers_counter: 0,
    is_verified: false,
    is_seller: false,
    created_at: now.toISOString(),
  };
}

/** The table item of a new profile (a non-seller: no directory index keys). */
export function newProfileItem(input: NewProfileInput, now: Date): Record<string, unknown> {
  return { ...profileKey(input.id), type: PROFILE_TYPE, ...newProfileRecord(input, now) };
}

export function profileItemKey(userId: string): { pk: string; sk: string } {
  return profileKey(userId);
}

export interface UpdateIntent {
  Key: { pk: string; sk: string };
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/** Marks the profile verified (spec 001 §4: verified = e-mail and phone verified). */
export function profileVerifiedUpdate(userId: string, verified: boolean): UpdateIntent {
  return {
    Key: profileKey(userId),
    UpdateExpression: 'SET is_verified = :verified',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':verified': verified },
  };
}

/**
 * What the follows domain needs from profiles (as the pieces above do for accounts): the key to
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
