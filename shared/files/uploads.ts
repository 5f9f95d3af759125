import { invalid } from '#shared/errors';
import { fileObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { isChosenName, type Naming, newFileId, newPublicName } from '#shared/files/names';
import { deleteObjects, putObject } from '#shared/files/objects';
import { withRoom } from '#shared/files/reclaim';
import { assertWithinQuota, QuotaExceeded } from '#shared/files/stats';
import { insertFiles, NameTaken } from '#shared/files/store';
import { countMetric } from '#shared/log/metrics';
import { type Quota, type QuotaLimits, quotaLimits } from '#shared/quota';

export interface Uploader {
  id: string;
  quota: Quota | null;
}

/** Options of an upload, from the `x-zipline-*` headers. */
export interface UploadOptions extends Naming {
  maxViews: number | null;
  deletesAt: string | null;
  downloadAsOriginalName: boolean;
  /** bcrypt hash of `x-zipline-password` (hashed by the handler), or null. */
  passwordHash: string | null;
}

/**
 * The options a pending upload keeps until its file is recorded, field by field: the handlers'
 * option objects may carry more (reply options such as the domain) that the item must not store.
 */
export const pendingUploadOptions = (options: UploadOptions) => ({
  format: options.format,
  filename: options.filename,
  extension: options.extension,
  extensionless: options.extensionless,
  maxViews: options.maxViews,
  deletesAt: options.deletesAt,
  downloadAsOriginalName: options.downloadAsOriginalName,
  passwordHash: options.passwordHash,
});

export interface IncomingFile {
  originalName: string;
  type: string;
  bytes: Buffer;
}

/** Public names are download links and sort keys: `/raw/{name}` takes at most this many bytes. */
const MAX_PUBLIC_NAME_BYTES = 255;

/**
 * Refuses, before anything is stored, an upload whose chosen names cannot be stored: too long with
 * the extension added, or the same name for two files of one upload.
 */
export function assertNamesFit(options: UploadOptions, originalNames: string[]): void {
  const names = originalNames.map((name) => newPublicName(options, name));
  for (const name of names) {
    if (Buffer.byteLength(name) > MAX_PUBLIC_NAME_BYTES) {
      throw invalid(
        `the file name ${name.slice(0, 40)}… is over ${MAX_PUBLIC_NAME_BYTES} bytes with its extension`,
      );
    }
  }
  if (isChosenName(options) && new Set(names).size < names.length) {
    throw invalid('two files of this upload would have the same name: upload them one by one');
  }
}

/** A new file's record; its bytes are at `objectKey` (by default the key of its id). */
export function newRecord(
  userId: string,
  upload: Omit<IncomingFile, 'bytes'> & { size: number },
  options: UploadOptions,
  objectKey?: string,
) {
  const now = new Date();
  const id = newFileId(now.getTime());
  const record: FileRecord = {
    id,
    name: newPublicName(options, upload.originalName, now),
    originalName: upload.originalName,
    size: upload.size,
    type: upload.type,
    views: 0,
    maxViews: options.maxViews,
    favorite: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deletesAt: options.deletesAt,
    downloadAsOriginalName: options.downloadAsOriginalName,
    objectKey: objectKey ?? fileObjectKey(userId, id),
    passwordHash: options.passwordHash,
    version: 1,
    thumbnail: null,
  };
  return record;
}

/**
 * Records the metadata of files whose bytes are stored. A generated name that happens to be taken
 * is drawn again; a name the client chose (`format: name`, `x-zipline-filename`) that is taken is
 * its error.
 */
export async function record(
  userId: string,
  files: FileRecord[],
  options: UploadOptions,
  quota: QuotaLimits | 'reserved',
  extra: Parameters<typeof insertFiles>[3] = [],
): Promise<FileRecord[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      await insertFiles(userId, files, quota, extra);
      countMetric('FilesUploaded', files.length);
      countMetric(
        'BytesUploaded',
        files.reduce((sum, file) => sum + file.size, 0),
      );
      return files;
    } catch (error) {
      if (!(error instanceof NameTaken)) throw error;
      if (isChosenName(options)) throw invalid(error.message);
      if (attempt >= 3) throw error;
      const taken = files.find((file) => file.name === error.fileName) as FileRecord;
      taken.name = newPublicName(options, taken.originalName);
    }
  }
}

/**
 * `POST /api/upload`: stores every file's bytes, then all metadata in one transaction. Refused by
 * the quota, it first gives back expired reservations of presigned uploads, if any, and tries again.
 */
export async function storeFiles(user: Uploader, incoming: IncomingFile[], options: UploadOptions) {
  assertNamesFit(
    options,
    incoming.map((file) => file.originalName),
  );
  const limits = quotaLimits(user.quota);
  assertWithinQuota(limits, {
    files: incoming.length,
    bytes: incoming.reduce((sum, file) => sum + file.bytes.length, 0),
  });
  const files = incoming.map((file) => newRecord(user.id, { ...file, size: file.bytes.length }, options));
  await Promise.all(
    files.map((file, index) => putObject(file.objectKey, (incoming[index] as IncomingFile).bytes, file.type)),
  );
  try {
    return await withRoom(
      user.id,
      () => record(user.id, files, options, limits),
      (error) => error instanceof QuotaExceeded,
    );
  } catch (error) {
    await deleteObjects(files.map((file) => file.objectKey));
    throw error;
  }
}
