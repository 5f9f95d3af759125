import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { type DownloadOptions, deleteFileObject, presignDownload } from '#shared/files/objects';
import { countView, deleteFileRecord, findDownloadable } from '#shared/files/store';

/**
 * A download: counts the view (refused when the file is unknown, expired or out of views, all alike
 * a 404) and answers a short-lived presigned URL for the bytes. A HEAD request (link checkers,
 * monitors) gets the same answer for a URL signed for HEAD, and counts no view: it downloads nothing.
 * (This module touches the bytes, so it loads the S3 client: only functions given a bucket may
 * import it.)
 */
export async function openDownload(
  name: string,
  options: Pick<DownloadOptions, 'attachment'> & { head?: boolean } = {},
): Promise<string> {
  const file = await (options.head ? findDownloadable(name) : countView(name));
  if (!file) throw notFound('file not found');
  return presignFile(file, { attachment: options.attachment, method: options.head ? 'HEAD' : 'GET' });
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
 * Deletes the metadata (and the counters' share) first, then the bytes: a failure between the two
 * leaves an unreferenced object, never a listed file without bytes.
 */
export async function deleteFile(userId: string, fileId: string): Promise<FileRecord> {
  const file = await deleteFileRecord(userId, fileId);
  await deleteFileObject(file);
  return file;
}
