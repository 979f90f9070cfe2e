/** Where an uploaded image's re-encoded WebP files are (S3 keys in the images bucket). */
export interface StoredImage {
  full: string;
  thumb: string;
}

/** Public URLs of a stored image (the images bucket is served under `imagesBaseUrl`). */
export function imageUrls(
  image: StoredImage,
  imagesBaseUrl: string,
): { url: string; thumb: string } {
  const url = (key: string) =>
    `${imagesBaseUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
  return { url: url(image.full), thumb: url(image.thumb) };
}
