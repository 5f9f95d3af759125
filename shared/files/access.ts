import { config } from '#shared/config';
import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { type DownloadOptions, deleteFileObject, presignDownload } from '#shared/files/objects';
import { countView, deleteFileRecord, findDownloadable } from '#shared/files/store';
import { countAttempt, refundAttempt } from '#shared/throttle/counter';

/** A password check: bcrypt against the hash, or the same work against a dummy when there is none. */
export type PasswordCheck = (password: string, hash: string | undefined) => Promise<boolean>;

export interface DownloadRequest extends Pick<DownloadOptions, 'attachment'> {
  head?: boolean;
  /** `?pw=`: the password of a protected file. */
  password?: string;
}

/**
 * A download: counts the view (refused when the file is unknown, expired, out of views, or protected
 * by a password not given, all alike a 404) and answers a short-lived presigned URL for the bytes. A
 * HEAD request (link checkers, monitors) gets the same answer for a URL signed for HEAD, and counts
 * no view: it downloads nothing. (This module touches the bytes, so it loads the S3 client: only
 * functions given a bucket may import it.)
 */
export async function openDownload(
  name: string,
  request: DownloadRequest,
  checkPassword: PasswordCheck,
): Promise<string> {
  const file = await unlock(name, request, checkPassword);
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
 * (the conditional view count itself refuses a protected file). With one, each guess at a protected
 * or unknown name is counted per name before the bcrypt work, and an unknown name costs the same
 * bcrypt work as a wrong password: answers and timing say nothing about which names are protected.
 * A right password gives its attempt back, so a shared link's viewers never use up the limit.
 */
async function unlock(
  name: string,
  request: DownloadRequest,
  checkPassword: PasswordCheck,
): Promise<FileRecord | undefined> {
  const serve = async (file: FileRecord | undefined) =>
    request.head ? file : countView(name, file?.passwordHash ?? null);
  if (request.password === undefined) {
    if (!request.head) return countView(name, null);
    const file = await findDownloadable(name);
    return file?.passwordHash === null ? file : undefined;
  }
  const file = await findDownloadable(name);
  if (file && file.passwordHash === null) return serve(file);
  const attempt = await countAttempt({
    scope: 'file-password',
    subject: name,
    max: config().throttle.filePasswordPerFile,
  });
  if (!(await checkPassword(request.password, file?.passwordHash ?? undefined)) || !file) return undefined;
  await refundAttempt(attempt);
  return serve(file);
}

/**
 * Deletes the metadata (and the counters' share) first, then the bytes: a failure between the two
 * leaves an unreferenced object, never a listed file without bytes.
 */
export async function deleteFile(userId: string, fileId: string): Promise<FileRecord> {
  const file = await deleteFileRecord(userId, fileId);
  await deleteFileObject(file);
  return file;
}
