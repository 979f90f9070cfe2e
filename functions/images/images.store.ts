import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';

/**
 * One bucket of objects (the images bucket, or the private files bucket): presigned uploads, reads
 * with a size cap, writes and deletes. Profiles and items both use it; the only S3 caller for
 * uploaded images.
 */
export interface ImagesStore {
  /** A presigned POST for exactly one object: this key, this Content-Type, at most maxBytes. */
  presignUpload(input: {
    key: string;
    contentType: string;
    maxBytes: number;
    expiresSeconds: number;
  }): Promise<{ url: string; fields: Record<string, string> }>;
  /**
   * The object's bytes; 'missing' when there is none; 'too_large' (without downloading it) when
   * it is over maxBytes.
   */
  read(key: string, maxBytes: number): Promise<Buffer | 'missing' | 'too_large'>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(keys: readonly string[]): Promise<void>;
}

export function createImagesStore(deps: { s3: S3Client; bucket: string }): ImagesStore {
  const { s3, bucket } = deps;
  return {
    async presignUpload({ key, contentType, maxBytes, expiresSeconds }) {
      return createPresignedPost(s3, {
        Bucket: bucket,
        Key: key,
        Conditions: [
          ['content-length-range', 1, maxBytes],
          ['eq', '$Content-Type', contentType],
        ],
        Fields: { 'Content-Type': contentType },
        Expires: expiresSeconds,
      });
    },

    async read(key, maxBytes) {
      let result;
      try {
        result = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'NoSuchKey' || name === 'NotFound') return 'missing';
        throw error;
      }
      const body = result.Body;
      if (body === undefined) return 'missing';
      if ((result.ContentLength ?? 0) > maxBytes) {
        await body.transformToWebStream().cancel();
        return 'too_large';
      }
      const bytes = Buffer.from(await body.transformToByteArray());
      return bytes.length > maxBytes ? 'too_large' : bytes;
    },

    async put(key, body, contentType) {
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          // Keys are never reused (a ULID per upload), so the CDN may cache for good.
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },

    async delete(keys) {
      // One DeleteObject per key (a handful at most): no multi-object delete checksum rules.
      await Promise.all(
        keys.map((Key) => s3.send(new DeleteObjectCommand({ Bucket: bucket, Key }))),
      );
    },
  };
}
