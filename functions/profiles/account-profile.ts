import type { UserOption } from '../../shared/schemas/profiles';
import { PROFILE_TYPE, profileKey } from './profiles.keys';
import type { ProfileRecord } from './profiles.repo';

/**
 * What the accounts domain needs from profiles, as write intents it runs inside its own
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
