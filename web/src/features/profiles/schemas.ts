import * as z from 'zod';
import { PROFILE_LIMITS } from '@shared/constants/limits';

import {
  IMAGE_MAX_BYTES,
  imageUploadError,
  PROFILE_IMAGE_TYPES,
  privateProfileSchema,
  publicProfileSchema,
  SOCIAL_SITES,
  socialSiteOf,
  videoEmbedUrl,
  type ImageKind,
  type PrivateProfile,
  type PublicProfile,
  type SocialMedia,
  type SocialSite,
  type UpdateProfileBody,
} from '@shared/schemas/profiles';

/* The profile contract comes from the shared schemas; this module adds the web form on top. */
export { IMAGE_MAX_BYTES, privateProfileSchema as ownProfileSchema, publicProfileSchema };
export type { ImageKind, PublicProfile, SocialMedia, UpdateProfileBody };
export type OwnProfile = PrivateProfile;
export type SocialNetwork = SocialSite;
export const SOCIAL_NETWORKS = SOCIAL_SITES;
export const IMAGE_TYPES = PROFILE_IMAGE_TYPES;

/** Client-side image check (spec 001 §5): an error key, or null when the file may go up. */
export function imageError(kind: ImageKind, file: File): string | null {
  return imageUploadError(kind, file.type, file.size);
}

/** The name shown for a profile: the company name, or name and surname. */
export function displayName(profile: PublicProfile): string {
  if (profile.user_option === 'company') return profile.entity_name || profile.name;
  return [profile.name, profile.surname].filter(Boolean).join(' ');
}

/** Title for individuals, slogan for companies. */
export function tagline(profile: PublicProfile): string | null {
  return (profile.user_option === 'company' ? profile.slogan : profile.title) || null;
}

// ---- video links --------------------------------------------------------------------------

/** The embed URL of a YouTube or Vimeo watch or embed link, or null (spec 001 §5). */
export const toEmbedUrl = videoEmbedUrl;

function parseUrl(value: string): URL | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** Only embed URLs of the known players are ever put into an iframe. */
export function isEmbedUrl(value: string): boolean {
  const url = parseUrl(value);
  if (!url || url.protocol !== 'https:') return false;
  return (
    (url.hostname === 'www.youtube.com' && url.pathname.startsWith('/embed/')) ||
    (url.hostname === 'www.youtube-nocookie.com' && url.pathname.startsWith('/embed/')) ||
    (url.hostname === 'player.vimeo.com' && url.pathname.startsWith('/video/'))
  );
}

// ---- social links -------------------------------------------------------------------------

/** Whether a link belongs to the given network (https/http links only). */
export function isSocialLink(network: SocialNetwork, value: string): boolean {
  return socialSiteOf(value) === network;
}

/** Social links that match their network; anything else is dropped. */
export function cleanSocialMedia(links: Partial<Record<SocialNetwork, string>>): SocialMedia {
  const clean: SocialMedia = {};
  for (const network of SOCIAL_NETWORKS) {
    const value = links[network]?.trim();
    if (value && isSocialLink(network, value)) clean[network] = value;
  }
  return clean;
}

// ---- the edit form ------------------------------------------------------------------------

const optionalLink = (network: SocialNetwork) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || isSocialLink(network, value), {
      error: 'account.edit_profile.errors.social',
    });

/** The edit-profile form (spec 001 §2, §5). Error messages are i18n keys. */
export function editProfileFormSchema(userOption: PublicProfile['user_option']) {
  const company = userOption === 'company';
  return z.object({
    name: z.string().trim().min(1, { error: 'forms.validation.required' }).max(100, {
      error: 'forms.validation.too_big',
    }),
    surname: company
      ? z.string()
      : z.string().trim().min(1, { error: 'forms.validation.required' }).max(100, {
          error: 'forms.validation.too_big',
        }),
    title: z
      .string()
      .trim()
      .max(PROFILE_LIMITS.userTitleMax, { error: 'forms.validation.too_big' }),
    slogan: z
      .string()
      .trim()
      .max(PROFILE_LIMITS.companySloganMax, { error: 'forms.validation.too_big' }),
    entity_address: z.string().trim().max(200, { error: 'forms.validation.too_big' }),
    summary: z
      .string()
      .trim()
      .max(PROFILE_LIMITS.summaryMax, { error: 'forms.validation.too_big' }),
    video_url: z
      .string()
      .trim()
      .refine((value) => value === '' || toEmbedUrl(value) !== null || isEmbedUrl(value), {
        error: 'forms.validation.link',
      }),
    social: z.object({
      linkedin: optionalLink('linkedin'),
      twitter: optionalLink('twitter'),
      instagram: optionalLink('instagram'),
      facebook: optionalLink('facebook'),
      medium: optionalLink('medium'),
    }),
  });
}
export type EditProfileForm = z.input<ReturnType<typeof editProfileFormSchema>>;

export function formDefaults(profile: PublicProfile): EditProfileForm {
  const company = profile.user_option === 'company';
  return {
    name: (company ? profile.entity_name || profile.name : profile.name) ?? '',
    surname: profile.surname ?? '',
    title: profile.title ?? '',
    slogan: profile.slogan ?? '',
    entity_address: profile.entity_address ?? '',
    summary: profile.summary ?? '',
    video_url: profile.video_url ?? '',
    social: {
      linkedin: profile.social_media.linkedin ?? '',
      twitter: profile.social_media.twitter ?? '',
      instagram: profile.social_media.instagram ?? '',
      facebook: profile.social_media.facebook ?? '',
      medium: profile.social_media.medium ?? '',
    },
  };
}

/** The PUT body for a valid form, by user type; an empty video link sends null. */
export function updateBodyFrom(
  userOption: PublicProfile['user_option'],
  form: EditProfileForm,
): UpdateProfileBody {
  const video = form.video_url.trim();
  const common = {
    summary: form.summary.trim(),
    video_url: video === '' ? null : (toEmbedUrl(video) ?? video),
    social_media: cleanSocialMedia(form.social),
  };
  if (userOption === 'company') {
    // Companies: `name` is the company name too (shared PROFILE_FIELDS_BY_TYPE).
    return {
      name: form.name.trim(),
      entity_name: form.name.trim(),
      slogan: form.slogan.trim(),
      entity_address: form.entity_address.trim(),
      ...common,
    };
  }
  return {
    name: form.name.trim(),
    surname: form.surname.trim(),
    title: form.title.trim(),
    ...common,
  };
}

export { isProfileNick, RESERVED_SEGMENTS } from '@shared/profilePaths';
