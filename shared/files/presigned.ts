import { randomBytes } from 'node:crypto';
import { TransactionConditionFailed } from '#shared/db/transact';
import { invalid, notFound, ServiceError } from '#shared/errors';
import { recordedType } from '#shared/files/content-type';
import { uploadObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import type { NameFormat } from '#shared/files/names';
import {
  deleteObjects,
  markUploadCompleted,
  objectSize,
  presignUpload,
  UPLOAD_URL_SECONDS,
  uploadHeaders,
} from '#shared/files/objects';
import {
  consumeUpload,
  getUpload,
  MAX_PENDING_UPLOADS,
  type PendingUpload,
  pendingUploadCount,
  RESERVATION_SECONDS,
  ReservationRefused,
  releaseUpload,
  reserveUpload,
  uploadDone,
} from '#shared/files/pending';
import { withRoom } from '#shared/files/reclaim';
import { assertWithinQuota, QuotaExceeded } from '#shared/files/stats';
import {
  assertNamesFit,
  newRecord,
  pendingUploadOptions,
  record,
  type Uploader,
  type UploadOptions,
} from '#shared/files/uploads';
import { type QuotaLimits, quotaLimits } from '#shared/quota';

/** Largest presigned upload: S3's limit for a single PUT. */
export const MAX_PRESIGNED_UPLOAD_BYTES = 5 * 1024 ** 3;

export interface StartedUpload {
  id: string;
  url: string;
  /** What the client must send with its PUT (signed into the URL). */
  headers: Record<string, string>;
  expiresAt: string;
}

const tooManyPending = () =>
  new ServiceError(
    'rate_limited',
    `at most ${MAX_PENDING_UPLOADS} uploads can be pending: complete one first (an upload never completed gives its room back an hour after it started)`,
  );

/**
 * Starts a presigned upload: reserves the file and its declared size in the quota (and a place among
 * the user's pending uploads) together with the pending item, then signs a PUT URL to the file's
 * final key for exactly that size and type.
 */
export async function startUpload(
  user: Uploader,
  file: { originalName: string; size: number; type: string },
  options: UploadOptions,
): Promise<StartedUpload> {
  if (file.size > MAX_PRESIGNED_UPLOAD_BYTES) {
    throw new ServiceError('too_large', 'a file can be at most 5 GiB');
  }
  assertNamesFit(options, [file.originalName]);
  const limits = quotaLimits(user.quota);
  assertWithinQuota(limits, { files: 1, bytes: file.size });
  const now = Date.now();
  const id = randomBytes(16).toString('hex');
  const upload: PendingUpload = {
    id,
    ...file,
    // The PUT is signed for the type the client declared (it sends that one); the file is recorded
    // with the type every upload path records, which downloads answer with.
    type: recordedType(file.type, file.originalName),
    objectKey: uploadObjectKey(user.id, id),
    ...pendingUploadOptions(options),
    createdAt: new Date(now).toISOString(),
    reservedUntil: new Date(now + RESERVATION_SECONDS * 1000).toISOString(),
  };
  await reservePending(user.id, upload, limits);
  return {
    id,
    url: await presignUpload(upload.objectKey, file.size, file.type),
    headers: uploadHeaders(file.type),
    expiresAt: new Date(now + UPLOAD_URL_SECONDS * 1000).toISOString(),
  };
}

/**
 * Reserves a pending upload's file and size (refused by the quota, it first gives back expired
 * reservations): 413 without room, 429 with too many uploads pending.
 */
export async function reservePending(userId: string, upload: PendingUpload, limits: QuotaLimits) {
  try {
    await withRoom(
      userId,
      () => reserveUpload(userId, upload, limits),
      (error) => error instanceof ReservationRefused,
    );
  } catch (error) {
    if (!(error instanceof ReservationRefused)) throw error;
    // The condition does not say which limit it hit; the counters do (only the message depends on it).
    throw (await pendingUploadCount(userId)) >= MAX_PENDING_UPLOADS ? tooManyPending() : new QuotaExceeded();
  }
}

/** Ends an upload that cannot become a file: its reservation back, its object deleted. */
async function abandon(userId: string, upload: PendingUpload): Promise<void> {
  if (await releaseUpload(userId, upload)) await deleteObjects([upload.objectKey]);
}

/**
 * Completes a presigned upload once its object is there with the declared size. Nothing is copied:
 * the object already is at its final key; it is retagged (out of the lifecycle rule's reach), then
 * the metadata is recorded in a transaction that consumes the pending item and turns the
 * reservation into the file, so two completions record one file. The URL cannot replace the object
 * afterwards (`If-None-Match: *`).
 */
export async function completeUpload(user: Uploader, uploadId: string): Promise<FileRecord> {
  const upload = await getUpload(user.id, uploadId);
  if (!upload) throw notFound('upload not found');
  const size = await objectSize(upload.objectKey);
  if (size === undefined) throw invalid('nothing has been uploaded to this upload URL yet');
  if (size !== upload.size) {
    await abandon(user.id, upload);
    throw invalid(`the uploaded object has ${size} bytes, not the declared ${upload.size}`);
  }
  try {
    await markUploadCompleted(upload.objectKey);
  } catch (error) {
    // Gone since the HEAD: a concurrent reclaim or release consumed the upload and deleted it.
    if ((await objectSize(upload.objectKey)) === undefined) throw notFound('upload not found');
    throw error;
  }
  return recordUpload(user, upload);
}

/**
 * Records the file of a pending upload whose bytes are complete at its object key: the metadata in
 * a transaction that consumes the pending item, turns the reservation into the file and records
 * which file the upload became (`uploadDone`), so two completions record one file.
 */
export async function recordUpload(user: Uploader, upload: PendingUpload): Promise<FileRecord> {
  const options: UploadOptions = {
    format: upload.format as NameFormat,
    filename: upload.filename ?? null,
    extension: upload.extension ?? null,
    extensionless: upload.extensionless ?? false,
    maxViews: upload.maxViews,
    deletesAt: upload.deletesAt,
    downloadAsOriginalName: upload.downloadAsOriginalName,
    passwordHash: upload.passwordHash ?? null,
  };
  const file = newRecord(user.id, upload, options, upload.objectKey);
  try {
    await record(user.id, [file], options, 'reserved', [
      consumeUpload(user.id, upload.id),
      uploadDone(user.id, upload, file.id),
    ]);
  } catch (error) {
    // The pending item is gone: a racing completion recorded the file (the object is its file's
    // now), or a reclaim took it back (and deletes the object). Either way, nothing to undo here.
    if (error instanceof TransactionConditionFailed) throw notFound('upload not found');
    // The name the client chose is taken: the upload cannot become a file.
    if (error instanceof ServiceError && error.kind === 'invalid') await abandon(user.id, upload);
    throw error;
  }
  return file;
}
