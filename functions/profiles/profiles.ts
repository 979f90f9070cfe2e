import { DomainError } from '../core/errors';
import type {
  PrivateProfile,
  PublicProfile,
  UpdateProfileBody,
} from '../../shared/schemas/profiles';
import { ONBOARDING_STATUSES, type OnboardingStatus } from '../../shared/onboarding';
import { imageUrl } from './list-sellers';
import { fieldsNotForType, profileChanges } from './profile-rules';
import type { ImagesStore } from '../images/index';
import type { ProfileRecord, ProfileStore } from './profiles.repo';

/**
 * Profiles (issue 3 item 6; spec 001 §2 edit-profile modal, §7 users/get-by-nickname, PUT
 * users/{id}, users/{id}/user-profile, auth/profile-image|profile-header-image|profile-video).
 */
/**
 * What profiles needs from the accounts domain (its AccountsDirectory fits; profiles.deps.ts plugs
 * it in): a nick's owner and a user's private contact fields. A port, so accounts may join
 * profiles' transactions (profiles.tx.ts) without a cycle.
 */
export interface ProfilesDirectory {
  userIdByNick(nick: string): Promise<string | undefined>;
  contactOf(userId: string): Promise<{ email: string; phone: string } | undefined>;
}

export interface ProfilesDeps {
  store: ProfileStore;
  directory: ProfilesDirectory;
  images: ImagesStore;
  imagesBaseUrl: string;
  newId: (now: Date) => string;
}

/** Presigned uploads expire after 5 minutes. */
export const UPLOAD_EXPIRES_SECONDS = 300;

export const notFound = () =>
  new DomainError('users.errors.not_found', { message: 'This user could not be found.' });

export function toPublicProfile(profile: ProfileRecord, imagesBaseUrl: string): PublicProfile {
  return {
    id: profile.id,
    nick: profile.nick,
    user_option: profile.user_option,
    name: profile.name,
    surname: profile.surname ?? null,
    entity_name: profile.entity_name ?? null,
    entity_address: profile.entity_address ?? null,
    title: profile.title ?? null,
    slogan: profile.slogan ?? null,
    summary: profile.summary ?? null,
    profile_image: imageUrl(imagesBaseUrl, profile.profile_image ?? null),
    profile_thumb: imageUrl(imagesBaseUrl, profile.profile_thumb ?? null),
    header_image: imageUrl(imagesBaseUrl, profile.header_image ?? null),
    video_url: profile.video_url ?? null,
    social_media: { ...(profile.social_media ?? {}) },
    followers_counter: profile.followers_counter ?? 0,
    is_verified: profile.is_verified === true,
    is_seller: profile.is_seller === true,
    created_at: profile.created_at,
  };
}

/** GET users/get-by-nickname/{nick}: the nick's owner from the accounts directory, then a GetItem. */
export async function getProfileByNick(
  deps: Pick<ProfilesDeps, 'store' | 'directory' | 'imagesBaseUrl'>,
  nick: string,
): Promise<PublicProfile> {
  const userId = await deps.directory.userIdByNick(nick);
  if (userId === undefined) throw notFound();
  const profile = await deps.store.getProfile(userId);
  if (profile === undefined) throw notFound();
  return toPublicProfile(profile, deps.imagesBaseUrl);
}

/** GET users/{id}/user-profile: the owner's own profile with e-mail and phone. */
export async function getOwnProfile(
  deps: Pick<ProfilesDeps, 'store' | 'directory' | 'imagesBaseUrl'>,
  userId: string,
): Promise<PrivateProfile> {
  const [profile, contact] = await Promise.all([
    deps.store.getProfile(userId),
    deps.directory.contactOf(userId),
  ]);
  if (profile === undefined || contact === undefined) throw notFound();
  return {
    ...toPublicProfile(profile, deps.imagesBaseUrl),
    ...contact,
    onboarding_status: onboardingStatusOrNull(profile.onboarding_status),
  };
}

function onboardingStatusOrNull(value: string | null | undefined): OnboardingStatus | null {
  return (ONBOARDING_STATUSES as readonly string[]).includes(value ?? '')
    ? (value as OnboardingStatus)
    : null;
}

export async function profileOf(store: ProfileStore, userId: string): Promise<ProfileRecord> {
  const profile = await store.getProfile(userId);
  if (profile === undefined) throw notFound();
  return profile;
}

/** PUT users/{id}: the edit-profile form (fields by user type; video → embed URL; social filter). */
export async function updateProfile(
  deps: Pick<ProfilesDeps, 'store' | 'imagesBaseUrl'>,
  input: { userId: string; body: UpdateProfileBody },
  now: Date,
): Promise<PublicProfile> {
  const current = await profileOf(deps.store, input.userId);
  const wrongType = fieldsNotForType(current.user_option, input.body);
  const { changes, errors } = profileChanges(current.user_option, input.body, now);
  const fields = { ...wrongType, ...errors };
  if (Object.keys(fields).length > 0) {
    throw new DomainError('account.edit_profile.errors.validation', {
      message: 'Some fields are not valid for this profile.',
      fields,
    });
  }
  const { after } = await deps.store.updateProfile(input.userId, changes);
  return toPublicProfile(after, deps.imagesBaseUrl);
}
