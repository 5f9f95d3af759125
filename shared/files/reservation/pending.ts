import { getItem } from '#shared/db/client';
import { fileStatsKey, uploadDoneKey, uploadKey } from '#shared/db/keys';
import { deleteIn, putIn, queryPages } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed } from '#shared/db/transact';
import { UPLOAD_SESSION_DAYS } from '#shared/files/layout';
import { statsUpdate } from '#shared/files/record/stats';
import { transactAsActiveOwner } from '#shared/files/record/store';
import type { QuotaLimits } from '#shared/quota';

/** Presigned uploads a user may have pending at once (started, not yet completed or reclaimed). */
export const MAX_PENDING_UPLOADS = 4;

/**
 * How long an upload's reservation is certainly kept: the URL's 15 minutes to begin the PUT, plus
 * time for the PUT of up to 5 GiB itself and the completion. After that the reservation may be
 * reclaimed (when its owner needs the room), and completing it is then 404.
 */
export const RESERVATION_SECONDS = 60 * 60;

/** How far a chunked upload has come. */
export interface ChunkProgress {
  identifier: string;
  /** The S3 multipart upload at `objectKey`. */
  s3UploadId: string;
  /** Bytes received: where the next chunk starts. */
  received: number;
  /** Parts uploaded (their ETags are items of their own). */
  parts: number;
  partSize: number;
  /**
   * Where the part in the making starts: the chunks from here to `received` are staged, each an
   * object and an item of its own (`chunk-staging.ts`), so this item stays small whatever the chunking.
   * Absent on items of earlier versions, which list their staged chunks in `staged`.
   */
  partStart?: number;
  staged?: { key: string; size: number }[];
  /** The first chunk's size, from which the chunks a client sends are counted (absent before 4.4's route). */
  chunkBytes?: number;
}

/** A started presigned upload: the file to record and its room in the quota, reserved. */
export interface PendingUpload {
  id: string;
  originalName: string;
  size: number;
  type: string;
  /** Where the presigned URL PUTs the bytes: the file's final key. */
  objectKey: string;
  format: string;
  /** The naming headers (absent on items of earlier versions). */
  filename?: string | null;
  extension?: string | null;
  extensionless?: boolean;
  maxViews: number | null;
  deletesAt: string | null;
  downloadAsOriginalName: boolean;
  /** The file's password hash (absent on items of earlier versions). */
  passwordHash?: string | null;
  /** Absent on items of earlier versions: no folder. */
  folderId?: string | null;
  /** A chunked upload's progress (absent on presigned uploads). */
  chunked?: ChunkProgress;
  /** While a request assembles a chunked upload's parts: until when its claim holds. */
  completingUntil?: string;
  createdAt: string;
  /** ISO time from which the reservation may be reclaimed. Not a TTL: a TTL deletion would leak it. */
  reservedUntil: string;
}

/** The end of a chunked upload's session: chunks come at most `UPLOAD_SESSION_DAYS` after the first. */
export const sessionEnd = (upload: Pick<PendingUpload, 'createdAt'>) =>
  Date.parse(upload.createdAt) + UPLOAD_SESSION_DAYS * 86_400_000;

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
export class ReservationRefused extends Error {
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
export async function reserveUpload(
  userId: string,
  upload: PendingUpload,
  limits: QuotaLimits,
): Promise<void> {
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
export async function pendingUploadCount(userId: string): Promise<number> {
  const counters = await getItem(fileStatsKey(userId), { consistent: true });
  return Number(counters?.pendingFiles ?? 0);
}

const fromItem = (item: Record<string, unknown>) => item as unknown as PendingUpload;

/**
 * A pending upload of this user, reclaimed or not. Items written by versions before reservations
 * (no `reservedUntil`, their object elsewhere) are not: they expire through the table's TTL.
 */
export async function getUpload(userId: string, uploadId: string): Promise<PendingUpload | undefined> {
  const item = await getItem(uploadKey(userId, uploadId), { consistent: true });
  return item?.reservedUntil ? fromItem(item) : undefined;
}

/** The transaction item that consumes a pending upload exactly once (completion or release). */
export const consumeUpload = (userId: string, uploadId: string): TransactItem =>
  deleteIn(uploadKey(userId, uploadId), { ConditionExpression: 'attribute_exists(pk)' });

/** How long the record of what a completed upload became lives (DynamoDB's TTL removes it). */
export const UPLOAD_DONE_SECONDS = 7 * 86_400;

/**
 * The transaction item recording which file a completed upload became, written with the file: its
 * object's key names the upload, so this is how the thumbnail function (and a chunked upload's last
 * chunk sent again) finds the file.
 */
export const uploadDone = (userId: string, upload: PendingUpload, fileId: string): TransactItem =>
  putIn({
    ...uploadDoneKey(userId, upload.id),
    fileId,
    size: upload.size,
    expiresAt: Math.floor(Date.now() / 1000) + UPLOAD_DONE_SECONDS,
  });

/** The file a completed upload became (and its size), for a week after the completion. */
export async function uploadedFile(
  userId: string,
  uploadId: string,
): Promise<{ fileId: string; size: number } | undefined> {
  const done = await getItem(uploadDoneKey(userId, uploadId), { consistent: true });
  return done ? { fileId: String(done.fileId), size: Number(done.size) } : undefined;
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

/** The user's pending uploads; with `expiredBefore`, only those whose reservation has run out by then. */
export async function pendingUploads(userId: string, expiredBefore?: Date): Promise<PendingUpload[]> {
  const uploads: PendingUpload[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :upload)',
    ...(expiredBefore ? { FilterExpression: 'reservedUntil < :now' } : {}),
    ExpressionAttributeValues: {
      ':pk': uploadKey(userId, '').pk,
      ':upload': uploadKey(userId, '').sk,
      ...(expiredBefore ? { ':now': expiredBefore.toISOString() } : {}),
    },
    ConsistentRead: true,
  });
  for await (const page of pages) {
    // Items of versions before reservations (no `reservedUntil`) expire through the table's TTL.
    uploads.push(...(page.Items ?? []).filter((item) => item.reservedUntil).map(fromItem));
  }
  return uploads;
}
