/**
 * What the service decodes of an image, in one place for the two that do (thumbnails and the
 * upload's image compression): which types, and up to how many pixels. docs/files.md#thumbnails
 * and #image-compression have the measurements.
 */

/** Raster types sharp decodes; SVG is never rasterised here (its bytes are the uploader's script). */
const DECODED_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
]);

/** Whether a file of this (recorded) type is an image the service decodes. */
export const isDecodedImage = (type: string): boolean =>
  DECODED_TYPES.has(type.split(';')[0]?.trim().toLowerCase() ?? '');

/**
 * Decoding stops before it starts past this many pixels (sharp's `limitInputPixels`, checked on the
 * image's header): a small file can claim a huge canvas. 50 megapixels takes a 50 MP phone photo
 * (8160×6120) and an 8K screenshot; decoding the worst such PNG (16-bit RGBA, interlaced, so held
 * whole) took about 480 MB above the process's own, within the functions' 1024 MB.
 */
export const IMAGE_MAX_INPUT_PIXELS = 50_000_000;
