import { notFound } from '#shared/errors';
import { thumbnailObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { type DownloadOptions, deleteFileObject, presignDownload } from '#shared/files/objects';
import { deleteFileRecord } from '#shared/files/store';
import { type PasswordGuess, unlockWithPassword } from '#shared/files/unlock';
import { countView, findDownloadable } from '#shared/files/views';

export interface DownloadRequest extends Pick<DownloadOptions, 'attachment'> {
  head?: boolean;
  /** `?pw=`: the password of a protected file, with who gave it and how to check it. */
  password?: PasswordGuess;
}

/**
 * A download: counts the view (refused when the file is unknown, expired, out of views, or protected
 * by a password not given, all alike a 404) and answers a short-lived presigned URL for the bytes. A
 * HEAD request (link checkers, monitors) gets the same answer for a URL signed for HEAD, and counts
 * no view: it downloads nothing. (This module touches the bytes, so it loads the S3 client: only
 * functions given a bucket may import it.)
 */
export async function openDownload(name: string, request: DownloadRequest): Promise<string> {
  const file = await unlock(name, request);
  if (!file) throw notFound('file not found');
  return presignFile(file, { attachment: request.attachment, method: request.head ? 'HEAD' : 'GET' });
}

/** A short-lived URL for the bytes, named as the file's downloads are. */
export const presignFile = (file: FileRecord, options: DownloadOptions = {}): Promise<string> =>
  presignDownload(
    file.objectKey,
    file.type,
    file.downloadAsOriginalName ? file.originalName : file.name,
    options,
  );

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
    ? presignDownload(
        thumbnailObjectKey(file.objectKey),
        'image/webp',
        `${file.downloadAsOriginalName ? file.originalName : file.name}.webp`,
        options,
      )
    : undefined;

/**
 * Deletes the metadata (and the counters' share) first, then the bytes: a failure between the two
 * leaves an unreferenced object, never a listed file without bytes.
 */
export async function deleteFile(userId: string, fileId: string): Promise<FileRecord> {
  const file = await deleteFileRecord(userId, fileId);
  await deleteFileObject(file);
  return file;
}
