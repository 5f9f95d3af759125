import { type TransactItem, TransactionConditionFailed } from '#shared/db/transact';
import { invalid, notFound, ServiceError } from '#shared/errors';
import { fileObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { isChosenName, newFileId, newPublicName } from '#shared/files/names';
import { NameTaken } from '#shared/files/record/name-claims';
import { creationWrite } from '#shared/files/reservation/creation';
import { abandon } from '#shared/files/reservation/give-back';
import { type Uploader, type UploadOptions, uploadOptionsOf } from '#shared/files/reservation/options';
import { consumeUpload, type PendingUpload, uploadDone } from '#shared/files/reservation/pending';
import type { CarriedOver } from '#shared/files/reservation/reservation';
import { write } from '#shared/files/reservation/writer';
import { countMetric } from '#shared/log/metrics';
import type { QuotaLimits } from '#shared/quota';

/** The description of a file whose bytes are (or are about to be) stored. */
export interface IncomingFileMeta {
  originalName: string;
  type: string;
  size: number;
}

/** A new file's record; its bytes are at `objectKey` (by default the key of its id). */
export function newRecord(
  userId: string,
  upload: IncomingFileMeta,
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
    folderId: options.folderId,
    tags: [],
  };
  return record;
}

/**
 * Records the metadata of files whose bytes are stored (`creationWrite`, refused by the quota after
 * the writer gave back expired reservations: 413). A generated name that happens to be taken is drawn
 * again; a name the client chose (`format: name`, `x-zipline-filename`) that is taken is its error.
 */
export async function record(
  userId: string,
  files: FileRecord[],
  options: UploadOptions,
  quota: QuotaLimits | 'reserved',
  extra: TransactItem[] = [],
): Promise<FileRecord[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const creation = creationWrite(userId, files, quota, extra);
      await write(userId, creation);
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
 * Records the file of a pending upload whose bytes are complete at its object key: the metadata in
 * a transaction that consumes the pending item, turns the reservation into the file and records
 * which file the upload became (`uploadDone`), so two completions record one file.
 */
export async function recordReserved(
  user: Uploader,
  upload: PendingUpload,
  carried: CarriedOver = {},
): Promise<FileRecord> {
  const options = uploadOptionsOf(upload);
  const made = newRecord(user.id, upload, options, upload.objectKey);
  const file = carried.describe ? carried.describe(made) : made;
  try {
    await record(user.id, [file], options, 'reserved', [
      consumeUpload(user.id, upload.id),
      uploadDone(user.id, upload, file.id),
      ...(carried.extra ? carried.extra(file) : []),
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
