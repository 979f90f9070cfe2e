/**
 * Images: the shared image pipeline and bucket store (not a domain: no calls, no table items).
 * The real type by magic bytes, the sharp re-encode to WebP, the bucket store (presigned uploads,
 * capped reads, writes, deletes) and the stored image's public URLs. Used by profiles and items.
 */
export {
  decodeBmp,
  detectImageType,
  detectType,
  encodeWebp,
  IMAGE_OUTPUTS,
  InvalidImage,
  MAX_INPUT_PIXELS,
  processImage,
  type ImageOutput,
  type ProcessedImage,
} from './images.pipeline';
export { createImagesStore, type ImagesStore } from './images.store';
export { imageUrls, type StoredImage } from './images';
