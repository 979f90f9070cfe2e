import * as z from 'zod';
import { PAGE_SIZE, PROFILE_LIMITS } from '../constants/limits';
import { ONBOARDING_STATUSES } from '../onboarding';

/** Account types (spec 001 §3 user_option). */
export const USER_OPTIONS = ['individual', 'company'] as const;
export const userOptionSchema = z.enum(USER_OPTIONS);
export type UserOption = z.infer<typeof userOptionSchema>;

/** Nick (username): 3 to 64 characters, lowercase letters and digits only (spec 001 §5). */
export const nickSchema = z
  .string({ error: 'forms.validation.required' })
  .min(PROFILE_LIMITS.nickMin, { error: 'forms.validation.too_small' })
  .max(PROFILE_LIMITS.nickMax, { error: 'forms.validation.too_big' })
  .regex(/^[a-z0-9]+$/, { error: 'forms.validation.invalid' });

/** A seller as the directory shows it: avatar, name, @nick, follower count. Spec field names. */
export const sellerSummarySchema = z.object({
  id: z.string(),
  nick: z.string(),
  /** Display name: name and surname for individuals, entity_name for companies. */
  name: z.string(),
  user_option: userOptionSchema,
  title: z.string().nullable(),
  /** Absolute or origin-relative URL of the avatar thumbnail; null when the user has none. */
  profile_image: z.string().nullable(),
  followers_counter: z.number().int().nonnegative(),
  is_verified: z.boolean(),
});
export type SellerSummary = z.infer<typeof sellerSummarySchema>;

/** Query of GET /api/users/sellers. */
export const listSellersQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'forms.validation.invalid' })
    .int({ error: 'forms.validation.invalid' })
    .min(1, { error: 'forms.validation.too_small' })
    .max(PAGE_SIZE.large, { error: 'forms.validation.too_big' })
    .default(PAGE_SIZE.large),
  cursor: z
    .string()
    .min(1, { error: 'forms.validation.cursor' })
    .max(1024, { error: 'forms.validation.cursor' })
    .optional(),
});
export type ListSellersQuery = z.infer<typeof listSellersQuerySchema>;

export const sellerPageSchema = z.object({
  items: z.array(sellerSummarySchema),
  /** Opaque; pass back as `cursor` for the next page. null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SellerPage = z.infer<typeof sellerPageSchema>;

/* ---------------------------------------------------------------------------------------------
 * Profiles (issue 3 item 6; spec 001 §2 edit-profile modal, §3 User, §5 validation, §7 calls).
 * ------------------------------------------------------------------------------------------- */

/** The social sites a profile may link to (spec 001 §5), keyed as stored in `social_media`. */
export const SOCIAL_SITES = ['linkedin', 'twitter', 'instagram', 'facebook', 'medium'] as const;
export type SocialSite = (typeof SOCIAL_SITES)[number];

function hostIs(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function parseHttpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url;
}

/**
 * The site a social link belongs to, or null when it is none of LinkedIn, Twitter (twitter.com or
 * x.com), Instagram, Facebook or Medium (medium.com or a Medium subdomain such as name.medium.com).
 */
export function socialSiteOf(link: string): SocialSite | null {
  const url = parseHttpUrl(link);
  if (url === null) return null;
  const host = url.hostname.toLowerCase();
  if (hostIs(host, 'linkedin.com')) return 'linkedin';
  if (hostIs(host, 'twitter.com') || hostIs(host, 'x.com')) return 'twitter';
  if (hostIs(host, 'instagram.com')) return 'instagram';
  if (hostIs(host, 'facebook.com')) return 'facebook';
  if (hostIs(host, 'medium.com')) return 'medium';
  return null;
}

/**
 * Social links as saved (spec 001 §5: a link is dropped unless it matches an allowed site). Each
 * kept link is stored under its site's key, whatever key it came with; the last link of a site
 * wins.
 */
export function allowedSocialLinks(
  links: Readonly<Record<string, string>>,
): Partial<Record<SocialSite, string>> {
  const kept: Partial<Record<SocialSite, string>> = {};
  for (const link of Object.values(links)) {
    if (typeof link !== 'string' || link.length > PROFILE_LINK_MAX) continue;
    const site = socialSiteOf(link);
    const url = parseHttpUrl(link);
    if (site !== null && url !== null) kept[site] = url.href;
  }
  return kept;
}

/** Longest link accepted (video or social). */
export const PROFILE_LINK_MAX = 2048;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;

/**
 * The embed URL of a YouTube or Vimeo watch or embed link (spec 001 §5: saved as an embed URL),
 * or null when the link is not one.
 */
export function videoEmbedUrl(link: string): string | null {
  const url = parseHttpUrl(link);
  if (url === null) return null;
  const host = url.hostname.toLowerCase().replace(/^(www|m)\./, '');
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  let youtube: string | undefined;
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (segments[0] === 'watch' && segments.length === 1) {
      youtube = url.searchParams.get('v') ?? undefined;
    } else if (
      ['embed', 'shorts', 'live', 'v'].includes(segments[0] ?? '') &&
      segments.length === 2
    ) {
      youtube = segments[1];
    }
  } else if (host === 'youtu.be' && segments.length === 1) {
    youtube = segments[0];
  }
  if (youtube !== undefined) {
    return YOUTUBE_ID.test(youtube) ? `https://www.youtube.com/embed/${youtube}` : null;
  }
  let vimeo: string | undefined;
  if (host === 'vimeo.com' && (segments.length === 1 || segments[0] === 'channels')) {
    vimeo = segments[segments.length - 1];
  } else if (host === 'player.vimeo.com' && segments[0] === 'video' && segments.length === 2) {
    vimeo = segments[1];
  }
  if (vimeo !== undefined && VIMEO_ID.test(vimeo)) return `https://player.vimeo.com/video/${vimeo}`;
  return null;
}

/** A video link as saved: '' or null → null; a video link → its embed URL; undefined otherwise. */
export function savedVideoUrl(link: string | null): string | null | undefined {
  if (link === null || link.trim() === '') return null;
  return videoEmbedUrl(link) ?? undefined;
}

export const socialMediaSchema = z.object({
  linkedin: z.string().optional(),
  twitter: z.string().optional(),
  instagram: z.string().optional(),
  facebook: z.string().optional(),
  medium: z.string().optional(),
});
export type SocialMedia = z.infer<typeof socialMediaSchema>;

/** A user's public profile (GET users/get-by-nickname/{nick}; spec 001 §3 field names). */
export const publicProfileSchema = z.object({
  id: z.string(),
  nick: z.string(),
  user_option: userOptionSchema,
  name: z.string(),
  surname: z.string().nullable(),
  entity_name: z.string().nullable(),
  entity_address: z.string().nullable(),
  title: z.string().nullable(),
  slogan: z.string().nullable(),
  summary: z.string().nullable(),
  /** URL (under the images base, /media) of the 400 px avatar, or null. */
  profile_image: z.string().nullable(),
  /** URL of the 96 px avatar thumbnail, or null. */
  profile_thumb: z.string().nullable(),
  /** URL of the cover image (companies), or null. */
  header_image: z.string().nullable(),
  /** Embed URL of the profile video (YouTube or Vimeo), or null. */
  video_url: z.string().nullable(),
  social_media: socialMediaSchema,
  followers_counter: z.number().int().nonnegative(),
  is_verified: z.boolean(),
  is_seller: z.boolean(),
  created_at: z.string(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** The owner's view (GET users/{id}/user-profile): the public profile plus private fields. */
export const privateProfileSchema = publicProfileSchema.extend({
  email: z.string(),
  phone: z.string(),
  /**
   * Seller onboarding with Stripe Connect (001 §3, §4): null before the user began; `complete`
   * once the user is a seller (is_seller).
   */
  onboarding_status: z.enum(ONBOARDING_STATUSES).nullable(),
});
export type PrivateProfile = z.infer<typeof privateProfileSchema>;

/** Path of GET /api/users/get-by-nickname/{nick}. */
export const nickPathSchema = z.object({
  nick: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, { error: 'forms.validation.required' })
    .max(PROFILE_LIMITS.nickMax, { error: 'forms.validation.too_big' }),
});

/** Path of the users/{id}/… profile calls: {id} must be the caller (403 otherwise). */
export const profileUserPathSchema = z.object({
  id: z.string().min(1, { error: 'forms.validation.required' }).max(64),
});

const profileName = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .min(1, { error: 'forms.validation.required' })
  .max(100, { error: 'forms.validation.too_big' });

/** Optional free text: trimmed; '' and null clear the field. */
function optionalText(max: number) {
  return z.string().trim().max(max, { error: 'forms.validation.too_big' }).nullable().optional();
}

/**
 * Body of PUT /api/users/{id} (spec 001 §2 edit-profile modal, §5). Fields by user type:
 * individuals name, surname, title (≤ 25); companies name (company name), entity_name, slogan
 * (≤ 60), entity_address; both summary (≤ 500), video_url, social_media. A field of the other type
 * is refused 400 naming it (`forms.validation.user_type`).
 */
export const updateProfileSchema = z.object({
  name: profileName.optional(),
  surname: profileName.optional(),
  title: optionalText(PROFILE_LIMITS.userTitleMax),
  entity_name: profileName.optional(),
  slogan: optionalText(PROFILE_LIMITS.companySloganMax),
  entity_address: optionalText(200),
  summary: optionalText(PROFILE_LIMITS.summaryMax),
  /** A YouTube/Vimeo watch or embed link (saved as its embed URL); '' or null clears it. */
  video_url: z
    .string()
    .max(PROFILE_LINK_MAX, { error: 'forms.validation.link' })
    .nullable()
    .optional()
    .refine((value) => value === undefined || savedVideoUrl(value) !== undefined, {
      error: 'forms.validation.link',
    }),
  /** Links keyed by anything; only LinkedIn, Twitter, Instagram, Facebook and Medium are kept. */
  social_media: z.record(z.string().max(32), z.string().max(PROFILE_LINK_MAX)).optional(),
});
export type UpdateProfileBody = z.infer<typeof updateProfileSchema>;

/** Which fields each user type may edit. */
export const PROFILE_FIELDS_BY_TYPE: Record<UserOption, readonly (keyof UpdateProfileBody)[]> = {
  individual: ['name', 'surname', 'title', 'summary', 'video_url', 'social_media'],
  company: [
    'name',
    'entity_name',
    'slogan',
    'entity_address',
    'summary',
    'video_url',
    'social_media',
  ],
};

/** Profile images (spec 001 §5): avatar ≤ 8 MB, cover (companies) ≤ 2 MB; png, jpeg or bmp. */
export const IMAGE_KINDS = ['avatar', 'cover'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];
export const PROFILE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/bmp'] as const;
export type ProfileImageType = (typeof PROFILE_IMAGE_TYPES)[number];
export const IMAGE_MAX_BYTES: Record<ImageKind, number> = {
  avatar: PROFILE_LIMITS.avatarMaxBytes,
  cover: PROFILE_LIMITS.coverMaxBytes,
};

/** The image error code of a file the user picked, or null when it may be uploaded. */
export function imageUploadError(
  kind: ImageKind,
  contentType: string,
  size: number,
): 'forms.validation.image.type' | 'forms.validation.image.size' | null {
  if (!(PROFILE_IMAGE_TYPES as readonly string[]).includes(contentType)) {
    return 'forms.validation.image.type';
  }
  if (!Number.isSafeInteger(size) || size < 1 || size > IMAGE_MAX_BYTES[kind]) {
    return 'forms.validation.image.size';
  }
  return null;
}

/** Body of POST /api/users/{id}/images/upload. Type and size are checked by the call (400). */
export const imageUploadBodySchema = z.object({
  kind: z.enum(IMAGE_KINDS, { error: 'forms.validation.enum' }),
  contentType: z.string().max(100),
  size: z.number({ error: 'forms.validation.invalid' }),
});
export type ImageUploadBody = z.infer<typeof imageUploadBodySchema>;

/** A presigned POST: post `fields` then the file (as `file`, last) to `url` as multipart. */
export const presignedUploadSchema = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
});
export type PresignedUpload = z.infer<typeof presignedUploadSchema>;

/** Body of POST /api/users/{id}/images: the uploaded object to check and apply. */
export const imageConfirmBodySchema = z.object({
  kind: z.enum(IMAGE_KINDS, { error: 'forms.validation.enum' }),
  key: z.string().min(1, { error: 'forms.validation.required' }).max(300),
});
export type ImageConfirmBody = z.infer<typeof imageConfirmBodySchema>;
