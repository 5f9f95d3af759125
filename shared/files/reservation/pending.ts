import { getItem } from '#shared/db/client';
import { uploadDoneKey, uploadKey } from '#shared/db/keys/uploads';
import { deleteIn, putIn, queryPages } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { UPLOAD_SESSION_DAYS } from '#shared/files/layout';

/**
 * The pending upload's items: what it is, how it is read, the transaction items that consume it and
 * record what it became. Its reservation (the counters it moves, reclaiming) is `reservation.ts`'s.
 */

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

const fromItem = (item: Record<string, unknown>) => item as unknown as PendingUpload;

/**
 * The reads of one upload of one user, each one consistent GetItem: what it is while pending, what
 * it became once completed. An upload's completion deletes the one and writes the other in one
 * transaction, so a reader that finds neither reads the first again when it must know.
 */
export interface UploadReads {
  /**
   * Its pending item, reclaimed or not. Items written by versions before reservations (no
   * `reservedUntil`, their object elsewhere) are not: they expire through the table's TTL.
   */
  pending: () => Promise<PendingUpload | undefined>;
  /** The file it became (and its size), for a week after the completion (`uploadDone`). */
  done: () => Promise<{ fileId: string; size: number } | undefined>;
}

export function uploadReads(userId: string, uploadId: string): UploadReads {
  return {
    pending: async () => {
      const item = await getItem(uploadKey(userId, uploadId), { consistent: true });
      return item?.reservedUntil ? fromItem(item) : undefined;
    },
    done: async () => {
      const done = await getItem(uploadDoneKey(userId, uploadId), { consistent: true });
      return done ? { fileId: String(done.fileId), size: Number(done.size) } : undefined;
    },
  };
}

/** The transaction item that consumes a pending upload exactly once (completion or release). */
export const consumeUpload = (userId: string, uploadId: string): TransactItem =>
  deleteIn(uploadKey(userId, uploadId), { ConditionExpression: 'attribute_exists(pk)' });

/** How long the record of what a completed upload became lives (DynamoDB's TTL removes it). */
export const UPLOAD_DONE_SECONDS = 7 * 86_400;

/**
 * The transaction item recording which file a completed upload became, written with the file: its
 * object's key names the upload, so this is how the thumbnail function (and a chunked upload's last
 * chunk sent again) finds the file (`uploadReads(…).done`).
 */
export const uploadDone = (userId: string, upload: PendingUpload, fileId: string): TransactItem =>
  putIn({
    ...uploadDoneKey(userId, upload.id),
    fileId,
    size: upload.size,
    expiresAt: Math.floor(Date.now() / 1000) + UPLOAD_DONE_SECONDS,
  });

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
