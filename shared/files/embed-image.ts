import { createHash, timingSafeEqual } from 'node:crypto';
import type { FileRecord } from '#shared/files/model';

/**
 * The image a link unfurler shows for a file (`og:image`, `twitter:image`): the original when it is
 * a type every unfurler renders and at most 5 MB (X's card limit, the strictest of the large ones;
 * Facebook takes 8 MB), which `summary_large_image` then shows at full size; else the WebP preview
 * (≤ 320 px) under the small `summary` card, whose image is that size; else none.
 */
export const EMBED_ORIGINAL_BYTES = 5_000_000;
const EMBED_TYPES = /^image\/(png|jpeg|gif|webp)$/;

export type EmbedImage = 'original' | 'preview';

/** The presentations whose embed shows an image: images, and videos by their thumbnail (a poster). */
export const showsEmbedImage = (presentation: string) => presentation === 'image' || presentation === 'video';

export function embedImageOf(file: FileRecord): EmbedImage | undefined {
  if (EMBED_TYPES.test(file.type) && file.size <= EMBED_ORIGINAL_BYTES) return 'original';
  return file.thumbnail ? 'preview' : undefined;
}

/**
 * Whether the embed image gets the file's stable link (`/raw/<name>?embed=<token>`, valid as long
 * as the file), which serves it without counting a view: only for files whose views are not limited
 * and which no password protects. A copied stable link would bypass either limit for good, so those
 * files keep the page's presigned URL, valid 15 minutes, as every other medium on the page.
 */
export const hasStableEmbed = (file: FileRecord) => file.maxViews === null && file.passwordHash === null;

/**
 * The `embed` token of a file's stable image link: derived from its id and object key (both private
 * to the owner), so it names this file only: a new file under the same name has another token, and
 * the token tells nothing of the id. Not a key: the link is public once the page is.
 */
export const embedToken = (file: Pick<FileRecord, 'id' | 'objectKey'>) =>
  createHash('sha256').update(`embed\0${file.id}\0${file.objectKey}`).digest('base64url').slice(0, 22);

export function isEmbedToken(file: FileRecord, token: string): boolean {
  const expected = Buffer.from(embedToken(file));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
