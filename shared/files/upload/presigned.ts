import { randomBytes } from 'node:crypto';
import { invalid, notFound, ServiceError } from '#shared/errors';
import { markUploadCompleted, objectSize } from '#shared/files/bucket/objects';
import { presignUpload, uploadHeaders } from '#shared/files/bucket/presigned-urls';
import { recordedType } from '#shared/files/content-type';
import { UPLOAD_URL_SECONDS, uploadObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { abandon } from '#shared/files/reservation/give-back';
import { assertNamesFit, type Uploader, type UploadOptions } from '#shared/files/reservation/options';
import { type PendingUpload, uploadReads } from '#shared/files/reservation/pending';
import { recordReserved } from '#shared/files/reservation/record';
import { type CarriedOver, pendingUpload, reserveWrite } from '#shared/files/reservation/reservation';
import { write } from '#shared/files/reservation/writer';
import { assertUploadAllowed } from '#shared/files/upload/policy';
import { assertWithinQuota, quotaLimits } from '#shared/quota';

/** Largest presigned upload: S3's limit for a single PUT. */
export const MAX_PRESIGNED_UPLOAD_BYTES = 5 * 1024 ** 3;

export interface StartedUpload {
  id: string;
  url: string;
  /** What the client must send with its PUT (signed into the URL). */
  headers: Record<string, string>;
  expiresAt: string;
}

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
  await assertUploadAllowed(
    [{ ...file, type: recordedType(file.type, file.originalName) }],
    options.extension,
  );
  const limits = quotaLimits(user.quota);
  assertWithinQuota(limits, { files: 1, bytes: file.size });
  const now = Date.now();
  const id = randomBytes(16).toString('hex');
  const upload = pendingUpload(
    {
      id,
      ...file,
      // The PUT is signed for the type the client declared (it sends that one); the file is recorded
      // with the type every upload path records, which downloads answer with.
      type: recordedType(file.type, file.originalName),
      objectKey: uploadObjectKey(user.id, id),
    },
    options,
    now,
  );
  await write(user.id, reserveWrite(user.id, upload, limits));
  return {
    id,
    url: await presignUpload(upload.objectKey, file.size, file.type),
    headers: uploadHeaders(file.type),
    expiresAt: new Date(now + UPLOAD_URL_SECONDS * 1000).toISOString(),
  };
}

/**
 * Completes a presigned upload once its object is there with the declared size. Nothing is copied:
 * the object already is at its final key; it is retagged (out of the lifecycle rule's reach), then
 * the metadata is recorded in a transaction that consumes the pending item and turns the
 * reservation into the file, so two completions record one file. The URL cannot replace the object
 * afterwards (`If-None-Match: *`). `carried` is what an imported file keeps of its past (issue 40).
 */
export async function completeUpload(
  user: Uploader,
  uploadId: string,
  carried: (upload: PendingUpload) => CarriedOver = () => ({}),
): Promise<FileRecord> {
  const upload = await uploadReads(user.id, uploadId).pending();
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
  return recordReserved(user, upload, carried(upload));
}
