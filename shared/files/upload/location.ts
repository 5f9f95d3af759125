import { IMAGE_MAX_INPUT_PIXELS } from '#shared/files/images';
import type { IncomingFile } from '#shared/files/upload/direct';

/** The types whose EXIF may carry a location and which sharp writes back in the same type. */
const REWRITTEN: Record<string, 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/avif': 'avif',
};

/**
 * Removes the location from an uploaded image (server setting `filesRemoveGpsMetadata`, issue 38):
 * an image with EXIF is written again in its own type without it (sharp drops EXIF, XMP and IPTC
 * unless told to keep them; the colour profile is kept, the orientation applied to the pixels;
 * JPEG, WebP and AVIF at quality 95, PNG and TIFF losslessly). An image without EXIF, or whose bytes
 * do not decode, or over the pixel limit, is stored as sent. Only the direct upload holds the bytes:
 * docs/settings.md says why chunked and presigned uploads keep theirs.
 */
export async function withoutLocation(file: IncomingFile): Promise<IncomingFile> {
  const format = REWRITTEN[(file.type.split(';')[0] ?? '').trim().toLowerCase()];
  if (!format) return file;
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(file.bytes, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS });
    const { exif } = await image.metadata();
    if (!exif) return file;
    const oriented = image.rotate().keepIccProfile();
    const lossy = { quality: 95 };
    const encoded =
      format === 'jpeg'
        ? oriented.jpeg(lossy)
        : format === 'webp'
          ? oriented.webp(lossy)
          : format === 'avif'
            ? oriented.avif(lossy)
            : format === 'png'
              ? oriented.png()
              : oriented.tiff();
    return { ...file, bytes: await encoded.toBuffer() };
  } catch {
    return file;
  }
}
