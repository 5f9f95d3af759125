import { randomBytes } from 'node:crypto';
import { TransactionConditionFailed } from '#shared/db/transact';
import { invalid, notFound, ServiceError } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { type NameFormat, newFileId, newPublicName } from '#shared/files/names';
import {
  copyObject,
  deleteObjects,
  fileObjectKey,
  objectSize,
  presignUpload,
  putObject,
  UPLOAD_URL_SECONDS,
  uploadObjectKey,
} from '#shared/files/objects';
import { quotaLimits } from '#shared/files/quota';
import {
  assertWithinQuota,
  consumeUpload,
  deleteUpload,
  getUpload,
  insertFiles,
  NameTaken,
  putUpload,
} from '#shared/files/store';
import type { Quota } from '#shared/users/model';

export interface Uploader {
  id: string;
  quota: Quota | null;
}

/** Options of an upload, from the `x-zipline-*` headers. */
export interface UploadOptions {
  format: NameFormat;
  maxViews: number | null;
  deletesAt: string | null;
  downloadAsOriginalName: boolean;
}

export interface IncomingFile {
  originalName: string;
  type: string;
  bytes: Buffer;
}

/** Largest presigned upload: a single PUT, and CopyObject, stop at 5 GiB. */
export const MAX_PRESIGNED_UPLOAD_BYTES = 5 * 1024 ** 3;

function newRecord(
  userId: string,
  upload: Omit<IncomingFile, 'bytes'> & { size: number },
  options: UploadOptions,
) {
  const now = new Date();
  const id = newFileId(now.getTime());
  const record: FileRecord = {
    id,
    name: newPublicName(options.format, upload.originalName, now),
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
    objectKey: fileObjectKey(userId, id),
    version: 1,
  };
  return record;
}

/**
 * Records the metadata of files whose bytes are stored. A generated name that happens to be taken
 * is drawn again; a name the client chose (`format: name`) that is taken is its error.
 */
async function record(
  user: Uploader,
  files: FileRecord[],
  options: UploadOptions,
  extra: Parameters<typeof insertFiles>[3] = [],
): Promise<FileRecord[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      await insertFiles(user.id, files, quotaLimits(user.quota), extra);
      return files;
    } catch (error) {
      if (!(error instanceof NameTaken)) throw error;
      if (options.format === 'name') throw invalid(error.message);
      if (attempt >= 3) throw error;
      const taken = files.find((file) => file.name === error.fileName) as FileRecord;
      taken.name = newPublicName(options.format, taken.originalName);
    }
  }
}

/** `POST /api/upload`: stores every file's bytes, then all metadata in one transaction. */
export async function storeFiles(user: Uploader, incoming: IncomingFile[], options: UploadOptions) {
  assertWithinQuota(quotaLimits(user.quota), {
    files: incoming.length,
    bytes: incoming.reduce((sum, file) => sum + file.bytes.length, 0),
  });
  const files = incoming.map((file) => newRecord(user.id, { ...file, size: file.bytes.length }, options));
  await Promise.all(
    files.map((file, index) => putObject(file.objectKey, (incoming[index] as IncomingFile).bytes, file.type)),
  );
  try {
    return await record(user, files, options);
  } catch (error) {
    await deleteObjects(files.map((file) => file.objectKey));
    throw error;
  }
}

export interface StartedUpload {
  id: string;
  url: string;
  expiresAt: string;
}

/** Starts a presigned upload: a pending item (expires by TTL) and a PUT URL for exactly this size. */
export async function startUpload(
  user: Uploader,
  file: { originalName: string; size: number; type: string },
  options: UploadOptions,
): Promise<StartedUpload> {
  if (file.size > MAX_PRESIGNED_UPLOAD_BYTES) {
    throw new ServiceError('too_large', 'a file can be at most 5 GiB');
  }
  assertWithinQuota(quotaLimits(user.quota), { files: 1, bytes: file.size });
  const id = randomBytes(16).toString('hex');
  const objectKey = uploadObjectKey(user.id, id);
  await putUpload(user.id, {
    id,
    ...file,
    objectKey,
    format: options.format,
    maxViews: options.maxViews,
    deletesAt: options.deletesAt,
    downloadAsOriginalName: options.downloadAsOriginalName,
    createdAt: new Date().toISOString(),
  });
  return {
    id,
    url: await presignUpload(objectKey, file.size, file.type),
    expiresAt: new Date(Date.now() + UPLOAD_URL_SECONDS * 1000).toISOString(),
  };
}

/**
 * Completes a presigned upload once the object is really there with the declared size: copies it
 * under `files/`, and records the metadata in a transaction that also consumes the pending upload,
 * so two completions record one file.
 */
export async function completeUpload(user: Uploader, uploadId: string): Promise<FileRecord> {
  const upload = await getUpload(user.id, uploadId);
  if (!upload) throw notFound('upload not found');
  const size = await objectSize(upload.objectKey);
  if (size === undefined) throw invalid('nothing has been uploaded to this upload URL yet');
  if (size !== upload.size) {
    await Promise.all([deleteObjects([upload.objectKey]), deleteUpload(user.id, uploadId)]);
    throw invalid(`the uploaded object has ${size} bytes, not the declared ${upload.size}`);
  }
  const options: UploadOptions = {
    format: upload.format as NameFormat,
    maxViews: upload.maxViews,
    deletesAt: upload.deletesAt,
    downloadAsOriginalName: upload.downloadAsOriginalName,
  };
  const file = newRecord(user.id, upload, options);
  await copyObject(upload.objectKey, file.objectKey);
  try {
    await record(user, [file], options, [consumeUpload(user.id, uploadId)]);
  } catch (error) {
    await deleteObjects([file.objectKey]);
    // The only other condition is the pending item's: gone means completed by a racing call.
    if (error instanceof TransactionConditionFailed) throw notFound('upload not found');
    throw error;
  }
  await deleteObjects([upload.objectKey]);
  return file;
}
