import { deleteObjects, putObject } from '#shared/files/bucket/objects';
import { assertNamesFit, type Uploader, type UploadOptions } from '#shared/files/reservation/options';
import { newRecord, record } from '#shared/files/reservation/record';
import { assertWithinQuota, quotaLimits } from '#shared/quota';

export interface IncomingFile {
  originalName: string;
  type: string;
  bytes: Buffer;
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
    return await record(user.id, files, options, limits);
  } catch (error) {
    await deleteObjects(files.map((file) => file.objectKey));
    throw error;
  }
}
