/**
 * What an image can be compressed to, apart from the encoder (upload/compression.ts), so that the
 * header validation every upload route runs does not bring sharp into their bundles.
 */

/** The types an image can be re-encoded to (Zipline's, but `jxl`, which sharp's build cannot write). */
export const COMPRESSED_TYPES = {
  jpg: { type: 'image/jpeg', extension: '.jpg' },
  png: { type: 'image/png', extension: '.png' },
  webp: { type: 'image/webp', extension: '.webp' },
} as const;
export type CompressedType = keyof typeof COMPRESSED_TYPES;

/** `x-zipline-image-compression-percent` and `-type`, read (validation/files/upload-headers.ts). */
export interface ImageCompression {
  /** sharp's quality, 1 to 100 (a percent of 0 is the lowest quality, 1). */
  quality: number;
  type: CompressedType;
}
