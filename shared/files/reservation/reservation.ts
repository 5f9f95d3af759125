import { type TransactItem, TransactionConditionFailed } from '#shared/db/transact';
import { notFound, ServiceError } from '#shared/errors';
import { deleteObjects } from '#shared/files/bucket/objects';
import type { FileRecord } from '#shared/files/model';
import { QuotaExceeded } from '#shared/files/record/stats';
import {
  pendingUploadOptions,
  type Uploader,
  type UploadOptions,
  uploadOptionsOf,
} from '#shared/files/reservation/options';
import {
  consumeUpload,
  MAX_PENDING_UPLOADS,
  type PendingUpload,
  pendingUploadCount,
  RESERVATION_SECONDS,
  ReservationRefused,
  releaseUpload,
  reserveUpload,
  uploadDone,
} from '#shared/files/reservation/pending';
import { withRoom } from '#shared/files/reservation/reclaim';
import { newRecord, record } from '#shared/files/reservation/record';
import type { QuotaLimits } from '#shared/quota';

/**
 * The reservation every upload kind but the direct one goes through: a pending upload holds its file
 * and declared size in the quota from its start (`reserve`) until its bytes are complete and it
 * becomes the file (`recordReserved`), or it cannot and gives its room back (`abandon`).
 */

/** What an upload kind describes of the pending upload it starts; the reservation adds the rest. */
export type NewPendingUpload = Omit<PendingUpload, keyof UploadOptions | 'createdAt' | 'reservedUntil'>;

/** A pending upload started now with these options, its reservation held for `RESERVATION_SECONDS`. */
export function pendingUpload(
  upload: NewPendingUpload,
  options: UploadOptions,
  now = Date.now(),
): PendingUpload {
  return {
    ...upload,
    ...pendingUploadOptions(options),
    createdAt: new Date(now).toISOString(),
    reservedUntil: new Date(now + RESERVATION_SECONDS * 1000).toISOString(),
  };
}

const tooManyPending = () =>
  new ServiceError(
    'rate_limited',
    `at most ${MAX_PENDING_UPLOADS} uploads can be pending: complete one first (an upload never completed gives its room back an hour after it started)`,
  );

/**
 * Reserves a pending upload's file and size (refused by the quota, it first gives back expired
 * reservations): 413 without room, 429 with too many uploads pending.
 */
export async function reserve(userId: string, upload: PendingUpload, limits: QuotaLimits) {
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
export async function abandon(userId: string, upload: PendingUpload): Promise<void> {
  if (await releaseUpload(userId, upload)) await deleteObjects([upload.objectKey]);
}

/**
 * What a file brought from elsewhere (a Zipline import, issue 40) keeps of its past: `describe`
 * gives the new record its name, views, dates, favourite and tags; `extra` joins the recording
 * transaction (the import's mapping claim, the tag memberships).
 */
export interface CarriedOver {
  describe?: (file: FileRecord) => FileRecord;
  extra?: (file: FileRecord) => TransactItem[];
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
