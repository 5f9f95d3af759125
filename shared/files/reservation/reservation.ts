import { getItem } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { uploadKey } from '#shared/db/keys/uploads';
import { putIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed } from '#shared/db/transact';
import { notFound, ServiceError } from '#shared/errors';
import { deleteObjects } from '#shared/files/bucket/objects';
import type { FileRecord } from '#shared/files/model';
import { QuotaExceeded, statsUpdate } from '#shared/files/record/stats';
import { transactAsActiveOwner } from '#shared/files/record/store';
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
  pendingUploads,
  RESERVATION_SECONDS,
  uploadDone,
} from '#shared/files/reservation/pending';
import { newRecord, record } from '#shared/files/reservation/record';
import { stagedChunks } from '#shared/files/reservation/staged-chunks';
import type { QuotaLimits } from '#shared/quota';

/**
 * The reservation every upload kind but the direct one goes through: a pending upload holds its file
 * and declared size in the quota from its start (`reserve`) until its bytes are complete and it
 * becomes the file (`recordReserved`), or it cannot and gives its room back (`abandon`). The
 * counters' writes of all three are here, and the reclaiming of expired reservations that makes room.
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

const reservation = (upload: Pick<PendingUpload, 'size'>, sign: 1 | -1) => ({
  files: sign,
  bytes: sign * upload.size,
  favorites: 0,
  media: 0,
  favoriteMedia: 0,
  pendingFiles: sign,
  pendingBytes: sign * upload.size,
});

/** Why a reservation was refused: no room in the quota, or too many uploads pending already. */
class ReservationRefused extends Error {
  constructor() {
    super('reservation refused');
    this.name = 'ReservationRefused';
  }
}

/**
 * Records a pending upload and reserves its file and bytes in the same transaction: the counters'
 * update carries the quota condition and the pending-uploads cap, so concurrent starts (and
 * concurrent `/api/upload`s) can never together exceed either.
 */
async function reserveUpload(userId: string, upload: PendingUpload, limits: QuotaLimits): Promise<void> {
  try {
    await transactAsActiveOwner(userId, [
      statsUpdate(userId, reservation(upload, 1), limits, MAX_PENDING_UPLOADS),
      putIn(
        { ...uploadKey(userId, upload.id), entity: 'UPLOAD', ...upload },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failedIndexes.includes(0)) {
      throw new ReservationRefused();
    }
    throw error;
  }
}

/** Reads the counters' pending count consistently, to tell which rule refused a reservation. */
async function pendingUploadCount(userId: string): Promise<number> {
  const counters = await getItem(fileStatsKey(userId), { consistent: true });
  return Number(counters?.pendingFiles ?? 0);
}

/**
 * Gives back the room of the user's presigned uploads whose reservation has run out, and deletes
 * whatever their URLs stored. Each release is a transaction that consumes the pending item, so a
 * concurrent completion or reclaim of the same upload makes it a no-op (and its object is left to
 * whoever won). Answers how many were reclaimed.
 *
 * DynamoDB's TTL is no use here: its deletion would drop the item and keep the reservation, and
 * DynamoDB Local never runs it at all. Reclaiming happens when the room is needed instead.
 */
export async function reclaimExpiredUploads(userId: string, now = new Date()): Promise<number> {
  let reclaimed = 0;
  for (const upload of await pendingUploads(userId, now)) {
    if (!(await releaseUpload(userId, upload))) continue;
    reclaimed++;
    // A chunked upload's staged chunks too (its S3 multipart upload is aborted by the lifecycle rule).
    const staged = upload.chunked ? await stagedChunks(userId, upload) : [];
    await deleteObjects([upload.objectKey, ...staged.map((object) => object.key)]);
  }
  return reclaimed;
}

/**
 * Runs a write that needs room in the user's quota or pending uploads; when it is `refused`, gives
 * back expired reservations and, if there were any, tries once more.
 */
export async function withRoom<T>(
  userId: string,
  write: () => Promise<T>,
  refused: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!refused(error) || (await reclaimExpiredUploads(userId)) === 0) throw error;
    return write();
  }
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

/**
 * Ends a pending upload without a file: deletes its item and gives its reservation back, in one
 * transaction. False when it was already gone (completed or released by a concurrent call).
 */
export async function releaseUpload(userId: string, upload: PendingUpload): Promise<boolean> {
  try {
    await transactAsActiveOwner(userId, [
      consumeUpload(userId, upload.id),
      statsUpdate(userId, reservation(upload, -1)),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return false;
    throw error;
  }
}
