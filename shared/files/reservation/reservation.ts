import { uploadKey } from '#shared/db/keys/uploads';
import { putIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { ServiceError } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { statsUpdate } from '#shared/files/record/stats';
import { pendingUploadOptions, type UploadOptions } from '#shared/files/reservation/options';
import {
  consumeUpload,
  MAX_PENDING_UPLOADS,
  type PendingUpload,
  RESERVATION_SECONDS,
} from '#shared/files/reservation/pending';
import { QuotaExceeded, type QuotaLimits } from '#shared/quota';

/**
 * The reservation every upload kind but the direct one goes through: a pending upload holds its file
 * and declared size in the quota from its start (`reserveWrite`) until its bytes are complete and it
 * becomes the file (`record.ts`), or it cannot and gives its room back (`releaseWrite`). Each is what
 * one step hands the writer (`writer.ts`): the items of one transaction and what its refusal means.
 * Nothing here reads or writes.
 */

/**
 * One step of an upload as the writer takes it: the items of one owner-checked transaction, and the
 * error that a refused condition means by the failed items' indexes (undefined: the refusal as it is,
 * a race the step reads again), given what the refused items held when they asked for it. A refusal
 * for room (`TooManyPending`, `QuotaExceeded`) makes the writer give back expired reservations and try
 * once more.
 */
export interface UploadWrite {
  items: TransactItem[];
  refusal?: (
    failedIndexes: number[],
    returnedItems: (Record<string, unknown> | undefined)[],
  ) => Error | undefined;
}

/** 429: the user has as many uploads pending as it may. */
export class TooManyPending extends ServiceError {
  constructor() {
    super(
      'rate_limited',
      `at most ${MAX_PENDING_UPLOADS} uploads can be pending: complete one first (an upload never completed gives its room back an hour after it started)`,
    );
  }
}

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

/**
 * Records a pending upload and reserves its file and bytes in the same transaction: the counters'
 * update carries the quota condition and the pending-uploads cap, so concurrent starts (and
 * concurrent `/api/upload`s) can never together exceed either. The condition does not say which
 * limit it hit; the counters it refused (returned with the refusal) do: 429 with too many uploads
 * pending, else 413.
 */
export const reserveWrite = (userId: string, upload: PendingUpload, limits: QuotaLimits): UploadWrite => ({
  items: [
    statsUpdate(userId, reservation(upload, 1), limits, MAX_PENDING_UPLOADS),
    putIn(
      { ...uploadKey(userId, upload.id), entity: 'UPLOAD', ...upload },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    ),
  ],
  refusal: (failed, [counters]) => {
    if (!failed.includes(0)) return undefined;
    return Number(counters?.pendingFiles ?? 0) >= MAX_PENDING_UPLOADS
      ? new TooManyPending()
      : new QuotaExceeded();
  },
});

/**
 * Ends a pending upload without a file: deletes its item and gives its reservation back, in one
 * transaction, refused when it was already gone (completed or released by a concurrent call).
 */
export const releaseWrite = (userId: string, upload: PendingUpload): UploadWrite => ({
  items: [consumeUpload(userId, upload.id), statsUpdate(userId, reservation(upload, -1))],
});

/**
 * What a file brought from elsewhere (a Zipline import, issue 40) keeps of its past: `describe`
 * gives the new record its name, views, dates, favourite and tags; `extra` joins the recording
 * transaction (the import's mapping claim, the tag memberships).
 */
export interface CarriedOver {
  describe?: (file: FileRecord) => FileRecord;
  extra?: (file: FileRecord) => TransactItem[];
}
