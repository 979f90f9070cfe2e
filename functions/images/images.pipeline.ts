import { fileTypeFromBuffer } from 'file-type';
import type { Sharp, SharpConstructor } from 'sharp';
import type { ImageKind, ProfileImageType } from '../../shared/schemas/profiles';
import { PROFILE_IMAGE_TYPES } from '../../shared/schemas/profiles';

/**
 * Images, server side (profiles and items): the real type from the file's magic bytes (file-type; the declared
 * Content-Type and the file name are not trusted), then a re-encode with sharp to WebP: rotated
 * by its EXIF orientation, metadata stripped (sharp writes none unless asked), resized.
 *   avatar: 400×400 cover crop + a 96×96 thumbnail;   cover: at most 1500 px wide.
 * sharp's prebuilt libvips has no BMP loader, so BMP (uncompressed, 24/32-bit or 8-bit palette)
 * is decoded here into raw pixels first.
 */
export const IMAGE_OUTPUTS = {
  avatar: [
    { suffix: '400', width: 400, height: 400 },
    { suffix: '96', width: 96, height: 96 },
  ],
  cover: [{ suffix: '1500', width: 1500, height: undefined }],
} as const satisfies Record<
  ImageKind,
  readonly { suffix: string; width: number; height: number | undefined }[]
>;

/** Pixels above which an input is refused (decompression bombs): 40 megapixels. */
export const MAX_INPUT_PIXELS = 40_000_000;

/**
 * The real type of the bytes by their magic bytes (file-type), when it is one of `allowed`; the
 * declared Content-Type and the file name are never trusted.
 */
export async function detectType<T extends string>(
  bytes: Uint8Array,
  allowed: readonly T[],
): Promise<T | undefined> {
  const mime = (await fileTypeFromBuffer(bytes))?.mime;
  return (allowed as readonly string[]).includes(mime ?? '') ? (mime as T) : undefined;
}

/** A profile image's real type (png, jpeg or bmp). */
export function detectImageType(bytes: Uint8Array): Promise<ProfileImageType | undefined> {
  return detectType(bytes, PROFILE_IMAGE_TYPES);
}

export class InvalidImage extends Error {
  override name = 'InvalidImage';
}

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}

/** Uncompressed BMP (BI_RGB 24/32-bit, BI_BITFIELDS 32-bit, 8-bit palette) → RGBA pixels. */
export function decodeBmp(bytes: Buffer): RawImage {
  if (bytes.length < 54 || bytes.toString('latin1', 0, 2) !== 'BM') {
    throw new InvalidImage('not a BMP');
  }
  const dataOffset = bytes.readUInt32LE(10);
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize < 40) throw new InvalidImage('unsupported BMP header');
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bitCount = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  const bottomUp = rawHeight > 0;
  if (width <= 0 || height <= 0 || width * height > MAX_INPUT_PIXELS) {
    throw new InvalidImage('bad BMP dimensions');
  }
  const supported =
    (compression === 0 && (bitCount === 24 || bitCount === 32 || bitCount === 8)) ||
    (compression === 3 && bitCount === 32);
  if (!supported)
    throw new InvalidImage(`unsupported BMP: ${bitCount} bit, compression ${compression}`);
  const rowSize = Math.ceil((bitCount * width) / 32) * 4;
  if (dataOffset + rowSize * height > bytes.length) throw new InvalidImage('truncated BMP');
  let palette: Buffer | undefined;
  if (bitCount === 8) {
    const colours = bytes.readUInt32LE(46) || 256;
    palette = bytes.subarray(14 + headerSize, 14 + headerSize + colours * 4);
  }
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const row = dataOffset + (bottomUp ? height - 1 - y : y) * rowSize;
    for (let x = 0; x < width; x += 1) {
      const target = (y * width + x) * 4;
      let b: number;
      let g: number;
      let r: number;
      if (palette !== undefined) {
        const index = bytes[row + x] ?? 0;
        b = palette[index * 4] ?? 0;
        g = palette[index * 4 + 1] ?? 0;
        r = palette[index * 4 + 2] ?? 0;
      } else {
        const source = row + x * (bitCount / 8);
        b = bytes[source] ?? 0;
        g = bytes[source + 1] ?? 0;
        r = bytes[source + 2] ?? 0;
      }
      out[target] = r;
      out[target + 1] = g;
      out[target + 2] = b;
      out[target + 3] = 255;
    }
  }
  return { data: out, width, height, channels: 4 };
}

/**
 * sharp is loaded on first use, not at module load: its native binary is then needed only by the
 * call that re-encodes images (and a bundle of this module can be imported without it).
 */
type SharpFactory = SharpConstructor;
let sharpModule: Promise<SharpFactory> | undefined;
function loadSharp(): Promise<SharpFactory> {
  const loading = sharpModule ?? import('sharp').then((module) => module.default);
  sharpModule = loading;
  return loading;
}

function load(sharp: SharpFactory, bytes: Buffer, type: string): Sharp {
  if (type === 'image/bmp') {
    const raw = decodeBmp(bytes);
    return sharp(raw.data, {
      raw: { width: raw.width, height: raw.height, channels: raw.channels },
    });
  }
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
}

export interface ProcessedImage {
  suffix: string;
  body: Buffer;
  width: number;
  height: number;
}

/**
 * Re-encodes a checked image to WebP in the sizes of its kind. Throws InvalidImage when the bytes
 * cannot be decoded (a corrupt file that only looks like an image).
 */
export async function processImage(
  kind: ImageKind,
  bytes: Buffer,
  type: ProfileImageType,
): Promise<ProcessedImage[]> {
  return encodeWebp(IMAGE_OUTPUTS[kind], bytes, type);
}

/** An output size: a width, and a height for a cover crop (undefined keeps the aspect ratio). */
export interface ImageOutput {
  suffix: string;
  width: number;
  height: number | undefined;
}

/**
 * Re-encodes checked image bytes (any type sharp decodes, or BMP) to WebP in the given sizes;
 * used by profile images and by item images (functions/items). Throws InvalidImage when the
 * bytes cannot be decoded.
 */
export async function encodeWebp(
  outputs: readonly ImageOutput[],
  bytes: Buffer,
  type: string,
): Promise<ProcessedImage[]> {
  try {
    const sharp = await loadSharp();
    // Decode once (rotation applied), then derive every size from the upright pixels.
    const upright = await load(sharp, bytes, type)
      .rotate()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = upright.info;
    const base = () => sharp(upright.data, { raw: { width, height, channels } });
    return await Promise.all(
      outputs.map(async (output) => {
        const resized =
          output.height === undefined
            ? base().resize({ width: output.width, withoutEnlargement: true })
            : base().resize({
                width: output.width,
                height: output.height,
                fit: 'cover',
                position: 'attention',
              });
        const result = await resized.webp({ quality: 82 }).toBuffer({ resolveWithObject: true });
        return {
          suffix: output.suffix,
          body: result.data,
          width: result.info.width,
          height: result.info.height,
        };
      }),
    );
  } catch (error) {
    if (error instanceof InvalidImage) throw error;
    throw new InvalidImage(error instanceof Error ? error.message : String(error));
  }
}
