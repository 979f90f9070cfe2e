import { UPLOADS_PREFIX } from '../core/storage';
import { DomainError } from '../core/errors';
import {
  imageUploadError,
  IMAGE_MAX_BYTES,
  type ImageConfirmBody,
  type ImageKind,
  type ImageUploadBody,
  type PresignedUpload,
  type PublicProfile,
} from '../../shared/schemas/profiles';
import { detectImageType, InvalidImage, processImage } from '../images/index';
import { profileOf, toPublicProfile, UPLOAD_EXPIRES_SECONDS, type ProfilesDeps } from './profiles';
import type { ProfileChanges, ProfileRecord } from './profiles.repo';

/**
 * Profile images (spec 001 §2, §5; replaces auth/profile-image and auth/profile-header-image):
 * a presigned POST with size and type conditions, then a confirm call that checks the real bytes
 * and re-encodes them. Kept apart from profiles.ts so that only the confirm handler bundles sharp.
 */
function imageError(
  code: 'forms.validation.image.type' | 'forms.validation.image.size',
  field: string,
) {
  return new DomainError(code, {
    message:
      code === 'forms.validation.image.type'
        ? 'The image must be a PNG, JPEG or BMP file.'
        : 'The image is too large.',
    fields: { [field]: code },
  });
}

function requireCoverAllowed(kind: ImageKind, profile: ProfileRecord): void {
  if (kind === 'cover' && profile.user_option !== 'company') {
    throw new DomainError('forbidden', { message: 'Only companies have a cover image.' });
  }
}

/** The prefix every upload of a user lives under. */
export function uploadPrefix(userId: string): string {
  return `${UPLOADS_PREFIX}${userId}/`;
}

/** POST users/{id}/images/upload: a presigned POST limited to this type and the kind's size. */
export async function createImageUpload(
  deps: Pick<ProfilesDeps, 'store' | 'images' | 'newId'>,
  input: { userId: string; body: ImageUploadBody },
  now: Date,
): Promise<PresignedUpload> {
  const { kind, contentType, size } = input.body;
  const problem = imageUploadError(kind, contentType, size);
  if (problem !== null) {
    throw imageError(problem, problem === 'forms.validation.image.type' ? 'contentType' : 'size');
  }
  requireCoverAllowed(kind, await profileOf(deps.store, input.userId));
  const key = `${uploadPrefix(input.userId)}${deps.newId(now)}`;
  const post = await deps.images.presignUpload({
    key,
    contentType,
    maxBytes: IMAGE_MAX_BYTES[kind],
    expiresSeconds: UPLOAD_EXPIRES_SECONDS,
  });
  return { ...post, key };
}

const UPLOAD_KEY = /^uploads\/[^/]+\/[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * POST users/{id}/images: checks the uploaded object by its magic bytes and size (anything else is
 * deleted and refused), re-encodes it to WebP, stores the sizes, deletes the upload, points the
 * profile at the new images and deletes the previous ones.
 */
export async function confirmImage(
  deps: ProfilesDeps,
  input: { userId: string; body: ImageConfirmBody },
  now: Date,
): Promise<PublicProfile> {
  const { kind, key } = input.body;
  if (!key.startsWith(uploadPrefix(input.userId)) || !UPLOAD_KEY.test(key)) {
    throw new DomainError('forbidden', { message: 'This upload is not yours.' });
  }
  const profile = await profileOf(deps.store, input.userId);
  requireCoverAllowed(kind, profile);
  const bytes = await deps.images.read(key, IMAGE_MAX_BYTES[kind]);
  if (bytes === 'missing') {
    throw new DomainError('account.edit_profile.errors.uploading', {
      message: 'The upload was not found; please upload the image again.',
      fields: { key: 'account.edit_profile.errors.uploading' },
    });
  }
  const refuse = async (code: 'forms.validation.image.type' | 'forms.validation.image.size') => {
    await deps.images.delete([key]);
    return imageError(code, 'file');
  };
  if (bytes === 'too_large') throw await refuse('forms.validation.image.size');
  const type = await detectImageType(bytes);
  if (type === undefined) throw await refuse('forms.validation.image.type');
  let outputs;
  try {
    outputs = await processImage(kind, bytes, type);
  } catch (error) {
    if (error instanceof InvalidImage) throw await refuse('forms.validation.image.type');
    throw error;
  }
  const id = deps.newId(now);
  const folder = kind === 'avatar' ? 'avatars' : 'covers';
  const stored = outputs.map((output) => ({
    ...output,
    key: `${folder}/${input.userId}/${id}-${output.suffix}.webp`,
  }));
  await Promise.all(stored.map((output) => deps.images.put(output.key, output.body, 'image/webp')));
  const changes: ProfileChanges =
    kind === 'avatar'
      ? {
          profile_image: stored[0]?.key ?? null,
          profile_thumb: stored[1]?.key ?? null,
          updated_at: now.toISOString(),
        }
      : { header_image: stored[0]?.key ?? null, updated_at: now.toISOString() };
  const { before, after } = await deps.store.updateProfile(input.userId, changes);
  const previous =
    kind === 'avatar' ? [before.profile_image, before.profile_thumb] : [before.header_image];
  const fresh = new Set(stored.map((output) => output.key));
  const stale = previous.filter(
    (old): old is string => typeof old === 'string' && old !== '' && !fresh.has(old),
  );
  // Only our own images are deleted (never, say, a seed avatar of another prefix).
  const own = stale.filter((old) => old.startsWith(`${folder}/${input.userId}/`));
  await deps.images.delete([key, ...own]);
  return toPublicProfile(after, deps.imagesBaseUrl);
}
