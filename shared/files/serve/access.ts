import { notFound } from '#shared/errors';
import { deleteFileObject, readObject, readObjectStart } from '#shared/files/bucket/objects';
import { type DownloadOptions, presignDownload } from '#shared/files/bucket/presigned-urls';
import { embedImageOf, hasStableEmbed, isEmbedToken } from '#shared/files/embed-image';
import { thumbnailObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { downloadPresentation, isText, isUtf8 } from '#shared/files/presentation';
import { deleteFileRecord } from '#shared/files/record/deletion';
import { isPopular } from '#shared/files/serve/popular-views';
import { type PasswordGuess, unlockWithPassword } from '#shared/files/serve/unlock';
import { countView, findDownloadable } from '#shared/files/serve/view-count';
import { deleteViewCounters } from '#shared/views/cleanup';

export interface DownloadRequest extends Pick<DownloadOptions, 'attachment'> {
  head?: boolean;
  /** `?pw=`: the password of a protected file, with who gave it and how to check it. */
  password?: PasswordGuess;
  /** `?embed=`: the view page's stable image link (`embedToken`): its embed image, no view counted. */
  embed?: string;
}

/**
 * A download: counts the view (refused when the file is unknown, expired, out of views, or protected
 * by a password not given, all alike a 404) and serves the file (`serveFile`). A HEAD request (link
 * checkers, monitors) gets the same headers, and counts no view: it downloads nothing. (This module
 * touches the bytes, so it loads the S3 client: only functions given a bucket may import it.)
 */
export async function openDownload(name: string, request: DownloadRequest): Promise<Served> {
  if (request.embed !== undefined) return openEmbedImage(name, request.embed, request.head === true);
  const file = await unlock(name, request);
  if (!file) throw notFound('file not found');
  return serveFile(file, { attachment: request.attachment, head: request.head });
}

/**
 * An unfurler's fetch of a view page's `og:image` (`/raw/<name>?embed=<token>`): the file's embed
 * image (`embedImageOf`), counting no view, while a download would be served and the file has a
 * stable embed link at all (no view limit, no password); anything else is `/raw`'s 404.
 */
async function openEmbedImage(name: string, token: string, head: boolean): Promise<Served> {
  const file = await findDownloadable(name);
  const image = file && hasStableEmbed(file) && isEmbedToken(file, token) ? embedImageOf(file) : undefined;
  if (!file || !image) throw notFound('file not found');
  if (image === 'original') return serveFile(file, { head });
  const location = await presignThumbnail(file, { method: head ? 'HEAD' : 'GET' });
  if (!location) throw notFound('file not found');
  return { kind: 'redirect', location };
}

/** The name a download carries: the original name only when the upload asked for it. */
const downloadName = (file: FileRecord) => (file.downloadAsOriginalName ? file.originalName : file.name);

/** A short-lived URL for the bytes, named as the file's downloads are. */
export const presignFile = (file: FileRecord, options: DownloadOptions = {}): Promise<string> =>
  presignDownload(file.objectKey, file.type, downloadName(file), options);

/**
 * Files up to this size are answered by the function itself, so the link stays the service's own
 * address: a Lambda response is at most 6 MB of JSON, and a binary body travels in it base64-encoded
 * (4/3): 4 MiB is 5.59 MB encoded, with room for the headers. (The same arithmetic as the upload
 * body limit.) Larger files are redirected to a presigned S3 URL.
 */
export const SERVED_DIRECTLY_BYTES = 4 * 1024 * 1024;

/** How much of a larger text file is read to tell whether it is UTF-8 (its redirect's charset). */
const CHARSET_SAMPLE_BYTES = 64 * 1024;

/** A download's answer: the bytes with their headers, or where to fetch them. */
export type Served =
  | { kind: 'bytes'; contentType: string; disposition: string; size: number; bytes?: Buffer }
  | { kind: 'redirect'; location: string };

export interface ServeOptions {
  /** A download button's request: always an attachment. */
  attachment?: boolean;
  /** HEAD: nothing is read but what the headers need (a text file's bytes, for its charset). */
  head?: boolean;
}

/**
 * Serves a file whose access was already decided (view counted, password checked, or the owner):
 * up to `SERVED_DIRECTLY_BYTES` the bytes themselves, larger a redirect to a presigned URL valid a
 * minute. Text is labelled `charset=utf-8` when its bytes are UTF-8 (a larger file: its first 64 KiB).
 */
export async function serveFile(file: FileRecord, options: ServeOptions = {}): Promise<Served> {
  const text = isText(file.type);
  if (file.size > SERVED_DIRECTLY_BYTES) {
    const utf8 = text && isUtf8(await readObjectStart(file.objectKey, CHARSET_SAMPLE_BYTES), false);
    const method = options.head ? 'HEAD' : 'GET';
    const location = await presignFile(file, { attachment: options.attachment, method, utf8 });
    return { kind: 'redirect', location };
  }
  // A HEAD reads the bytes only for a text file's charset; an empty file has none to read.
  const read = !(options.head && !text) && file.size > 0;
  const bytes = read ? await readObject(file.objectKey) : Buffer.alloc(0);
  const presentation = downloadPresentation(
    file.type,
    downloadName(file),
    options.attachment === true,
    text && (read || file.size === 0) && isUtf8(bytes),
  );
  return { kind: 'bytes', ...presentation, size: file.size, ...(options.head ? {} : { bytes }) };
}

/**
 * The file a download may serve, its view counted. Without a password this costs what it always did
 * (the conditional view count itself refuses a protected file). With one, `unlockWithPassword`.
 */
async function unlock(name: string, request: DownloadRequest): Promise<FileRecord | undefined> {
  if (request.password === undefined) {
    if (!request.head) return countView(name, null);
    const file = await findDownloadable(name);
    return file?.passwordHash === null ? file : undefined;
  }
  const file = await unlockWithPassword(name, request.password, () => findDownloadable(name));
  if (!file || request.head) return file;
  return countView(name, file.passwordHash);
}

/**
 * A short-lived URL for the file's thumbnail (WebP, inline), or undefined while it has none. Named
 * after the file with `.webp`, counting nothing: a preview, not a download.
 */
export const presignThumbnail = (
  file: FileRecord,
  options: Pick<DownloadOptions, 'method' | 'expiresIn'> = {},
): Promise<string> | undefined =>
  file.thumbnail
    ? presignDownload(thumbnailObjectKey(file.objectKey), 'image/webp', `${downloadName(file)}.webp`, options)
    : undefined;

/**
 * Deletes the metadata (and the counters' share) first, then the bytes and a popular file's view
 * counters: a failure between them leaves an unreferenced object or counter, never a listed file
 * without bytes.
 */
export async function deleteFile(userId: string, fileId: string): Promise<FileRecord> {
  const file = await deleteFileRecord(userId, fileId);
  await deleteFileObject(file);
  if (isPopular(file)) await deleteViewCounters('file', [file.id]);
  return file;
}
