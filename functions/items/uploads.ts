import { UPLOADS_PREFIX } from '../core/storage';
import { ITEM_IMAGE_TYPES } from '../../shared/schemas/items';
import { DomainError } from '../core/errors';
import { ITEM_LIMITS } from '../../shared/constants/limits';
import type { UploadRequest, UploadTicket, Uploaded } from '../../shared/schemas/items';
import { detectType, encodeWebp, InvalidImage, type ImagesStore } from '../images/index';
import { UPLOAD_EXPIRES_SECONDS, imageUrls, type UploadRecord } from './items';
import type { ItemFilesStore, ItemsRepo } from './items.repo';

/**
 * store-token-images (spec 000 §7; presigned POST instead of multipart, docs/api.md): a presigned
 * POST pinned to the declared type and the kind's size, then a confirm call. Images are checked
 * by their magic bytes, re-encoded to WebP (full ≤ 1600 px wide, thumb 400 px wide) and the
 * original deleted; files are recorded with their size and type. Both leave a confirmed `upload`
 * (TTL 24 h) that token/create consumes.
 */
export const ITEM_IMAGE_OUTPUTS = [
  { suffix: '1600', width: 1600, height: undefined },
  { suffix: '400', width: 400, height: undefined },
] as const;

export interface UploadsDeps {
  repo: Pick<ItemsRepo, 'getUpload' | 'putUpload'>;
  /** The images bucket (public via /media): uploads/ prefix and the re-encoded items/ images. */
  images: ImagesStore;
  /** The private files bucket: presigned POST (same store shape) and size/type reads. */
  files: Pick<ImagesStore, 'presignUpload' | 'delete'> & Pick<ItemFilesStore, 'head'>;
  imagesBaseUrl: string;
  newId(now: Date): string;
}

function fieldError(
  code:
    | 'forms.validation.image.type'
    | 'forms.validation.image.size'
    | 'forms.validation.too_big'
    | 'market.create_product.errors.image_upload',
  field: string,
  message: string,
): DomainError {
  return new DomainError(code, { message, fields: { [field]: code } });
}

export async function createUpload(
  deps: UploadsDeps,
  input: { userId: string; body: UploadRequest },
  now: Date,
): Promise<UploadTicket> {
  const { kind, content_type: contentType, size } = input.body;
  if (kind === 'image') {
    if (!(ITEM_IMAGE_TYPES as readonly string[]).includes(contentType)) {
      throw fieldError(
        'forms.validation.image.type',
        'content_type',
        'The image must be a PNG, JPEG, WebP, BMP or GIF file.',
      );
    }
    if (size > ITEM_LIMITS.imageMaxBytes) {
      throw fieldError('forms.validation.image.size', 'size', 'The image is too large.');
    }
  } else if (size > ITEM_LIMITS.attachedFileMaxBytes) {
    throw fieldError('forms.validation.too_big', 'size', 'The file is too large.');
  }
  const uploadId = deps.newId(now);
  const sourceKey =
    kind === 'image'
      ? `${UPLOADS_PREFIX}${input.userId}/${uploadId}`
      : `items/${input.userId}/${uploadId}`;
  const store = kind === 'image' ? deps.images : deps.files;
  const post = await store.presignUpload({
    key: sourceKey,
    contentType,
    maxBytes: kind === 'image' ? ITEM_LIMITS.imageMaxBytes : ITEM_LIMITS.attachedFileMaxBytes,
    expiresSeconds: UPLOAD_EXPIRES_SECONDS,
  });
  const record: UploadRecord = {
    upload_id: uploadId,
    user_id: input.userId,
    kind,
    status: 'pending',
    content_type: contentType,
    name: input.body.name ?? null,
    source_key: sourceKey,
    bytes: 0,
    image: null,
    file: null,
    item_id: null,
    created_at: now.toISOString(),
  };
  await deps.repo.putUpload(record, now);
  return {
    upload_id: uploadId,
    post,
    expires_at: new Date(now.getTime() + UPLOAD_EXPIRES_SECONDS * 1000).toISOString(),
  };
}

function toUploaded(upload: UploadRecord, imagesBaseUrl: string): Uploaded {
  return {
    upload_id: upload.upload_id,
    kind: upload.kind,
    bytes: upload.bytes,
    image: upload.image === null ? null : imageUrls(upload.image, imagesBaseUrl),
    file:
      upload.file === null
        ? null
        : { name: upload.file.name, size: upload.file.size, type: upload.file.type },
  };
}

export async function confirmUpload(
  deps: UploadsDeps,
  input: { userId: string; uploadId: string },
  now: Date,
): Promise<Uploaded> {
  const upload = await deps.repo.getUpload(input.userId, input.uploadId);
  const missing = () =>
    fieldError(
      'market.create_product.errors.image_upload',
      'upload_id',
      'The upload was not found; please upload the file again.',
    );
  if (upload === undefined) throw missing();
  if (upload.status !== 'pending') return toUploaded(upload, deps.imagesBaseUrl);

  if (upload.kind === 'file') {
    const head = await deps.files.head(upload.source_key);
    if (head === undefined) throw missing();
    const file = {
      key: upload.source_key,
      name: upload.name ?? 'file',
      size: head.size,
      type: head.type,
    };
    const confirmed: UploadRecord = { ...upload, status: 'confirmed', bytes: head.size, file };
    await deps.repo.putUpload(confirmed, now);
    return toUploaded(confirmed, deps.imagesBaseUrl);
  }

  const bytes = await deps.images.read(upload.source_key, ITEM_LIMITS.imageMaxBytes);
  if (bytes === 'missing') throw missing();
  const refuse = async (code: 'forms.validation.image.type' | 'forms.validation.image.size') => {
    await deps.images.delete([upload.source_key]);
    return fieldError(
      code,
      'file',
      code === 'forms.validation.image.type'
        ? 'The image must be a PNG, JPEG, WebP, BMP or GIF file.'
        : 'The image is too large.',
    );
  };
  if (bytes === 'too_large') throw await refuse('forms.validation.image.size');
  const detected = await detectType(bytes, ITEM_IMAGE_TYPES);
  if (detected === undefined) {
    throw await refuse('forms.validation.image.type');
  }
  let outputs;
  try {
    outputs = await encodeWebp(ITEM_IMAGE_OUTPUTS, bytes, detected);
  } catch (error) {
    if (error instanceof InvalidImage) throw await refuse('forms.validation.image.type');
    throw error;
  }
  const keyOf = (suffix: string) => `items/${input.userId}/${upload.upload_id}-${suffix}.webp`;
  await Promise.all(
    outputs.map((output) => deps.images.put(keyOf(output.suffix), output.body, 'image/webp')),
  );
  await deps.images.delete([upload.source_key]);
  const confirmed: UploadRecord = {
    ...upload,
    status: 'confirmed',
    bytes: outputs.reduce((sum, output) => sum + output.body.length, 0),
    image: { full: keyOf('1600'), thumb: keyOf('400') },
  };
  await deps.repo.putUpload(confirmed, now);
  return toUploaded(confirmed, deps.imagesBaseUrl);
}
