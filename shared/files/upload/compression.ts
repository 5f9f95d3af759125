import { extname } from 'node:path';
import { invalid } from '#shared/errors';
import { IMAGE_MAX_INPUT_PIXELS, isDecodedImage } from '#shared/files/images';
import { SAFE_EXTENSION } from '#shared/files/names';
import { COMPRESSED_TYPES, type ImageCompression } from '#shared/files/upload/compression-types';
import type { IncomingFile } from '#shared/files/upload/direct';

/** The file to store, and whether its bytes are the re-encoded image (`compressed: true` in the answer). */
export interface CompressionOutcome {
  file: IncomingFile;
  compressed: boolean;
}

const MEGAPIXELS = IMAGE_MAX_INPUT_PIXELS / 1_000_000;

/** The uploaded name with the new type's extension: `photo.png` → `photo.jpg`, `shot` → `shot.jpg`. */
function renamed(originalName: string, extension: string): string {
  const current = extname(originalName);
  const stem = SAFE_EXTENSION.test(current) ? originalName.slice(0, -current.length) : originalName;
  return `${stem || originalName}${extension}`;
}

/**
 * Re-encodes an image at the quality and type asked (Zipline's image compression): EXIF orientation
 * applied, then metadata dropped (location included); a transparent image turned JPEG on white; an
 * animation kept by WebP, its first frame otherwise. Its type and name's extension become the new
 * type's. What is not an image sharp decodes (text, SVG, a PDF), and an image whose bytes do not
 * decode, is stored as sent (Zipline too keeps the original when compression fails). An image over
 * the pixel limit is a 400 naming it: refused from its header, before any pixel is decoded.
 */
export async function compressImage(
  file: IncomingFile,
  compression: ImageCompression,
): Promise<CompressionOutcome> {
  if (!isDecodedImage(file.type)) return { file, compressed: false };
  // Loaded on the first image only: an upload without compression never loads libvips.
  const { default: sharp } = await import('sharp');
  // Every frame of an animation is decoded (and counted) only when WebP keeps them.
  const animated = compression.type === 'webp';
  let pixels: number;
  try {
    const { width, height } = await sharp(file.bytes, { animated, limitInputPixels: false }).metadata();
    pixels = width * height;
  } catch {
    return { file, compressed: false };
  }
  if (pixels > IMAGE_MAX_INPUT_PIXELS) {
    throw invalid(
      `${file.originalName} is ${pixels.toLocaleString('en')} pixels: images are compressed up to ${MEGAPIXELS} megapixels (${IMAGE_MAX_INPUT_PIXELS.toLocaleString('en')} pixels); send it without x-zipline-image-compression-percent to store it as it is`,
    );
  }
  const target = COMPRESSED_TYPES[compression.type];
  const { quality } = compression;
  let bytes: Buffer;
  try {
    const oriented = sharp(file.bytes, { animated, limitInputPixels: IMAGE_MAX_INPUT_PIXELS }).rotate();
    const encoder =
      compression.type === 'jpg'
        ? oriented.flatten({ background: '#ffffff' }).jpeg({ quality })
        : compression.type === 'png'
          ? oriented.png({ quality })
          : oriented.webp({ quality });
    bytes = await encoder.toBuffer();
  } catch {
    return { file, compressed: false };
  }
  return {
    file: { originalName: renamed(file.originalName, target.extension), type: target.type, bytes },
    compressed: true,
  };
}

/**
 * The compressions under way in this process, one after the other: Lambda gives each request its
 * own sandbox anyway, but the local runner answers every request in one process, which then holds
 * one decoded image at most, whatever is uploaded at once.
 */
let compressing: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = compressing.then(task);
  compressing = run.catch(() => undefined);
  return run;
}

/**
 * The files of a direct upload as they are to be stored, with compression asked for (`null`: as
 * sent): one image at a time, so an upload of many holds one decoded image at most. `compressed[i]`
 * says whether file `i` was re-encoded.
 */
export async function compressImages(files: IncomingFile[], compression: ImageCompression | null) {
  if (compression === null) return { files, compressed: files.map(() => false) };
  const outcomes: CompressionOutcome[] = [];
  for (const file of files) outcomes.push(await oneAtATime(() => compressImage(file, compression)));
  return {
    files: outcomes.map((outcome) => outcome.file),
    compressed: outcomes.map((outcome) => outcome.compressed),
  };
}
