/**
 * The functions that are not routes: those S3 starts on the bucket's notifications, and those a
 * schedule starts. Their grants are declared as a route's (routes/grants.ts).
 */
import { EXPIRY_INDEX, FILE_PREFIX } from '#shared/db/keys/files';
import { ACCESS, BUCKET } from '#shared/routes/access';
import type { BucketAccess, ObjectPrefix, TableAccess } from '#shared/routes/grants';
import type { Route } from '#shared/routes/route';

/** S3 notifications a function can subscribe to, by S3's names (`*` for every kind). */
export type ObjectEventType = 's3:ObjectCreated:*' | 's3:ObjectTagging:Put';

/**
 * A function S3 starts, not a route: on each of `events` for objects under `prefix` (the bucket's
 * notifications). Its grants are declared as a route's; `native` names the native module its bundle
 * carries (the linux-arm64 binary from infra/native), which no other function does.
 */
export interface ObjectEventFunction {
  handler: string;
  prefix: ObjectPrefix;
  events: readonly ObjectEventType[];
  table?: TableAccess;
  bucket?: BucketAccess;
  native?: NonNullable<Route['native']>;
  /** Its bundle carries ffmpeg's linux-arm64 binary (32.8 MB): video thumbnails. */
  ffmpeg?: true;
  /**
   * A long run of its own (the export): Lambda's longest timeout, this memory (for the network and
   * CPU share it brings), and no reserved concurrency (one run per user at most, from the pool).
   */
  longRun?: { memoryMb: number };
}

/** The export function's timeout: Lambda's longest (exports/run.ts stops 90 s before it). */
export const LONG_RUN_SECONDS = 900;

export const objectEventFunctions: readonly ObjectEventFunction[] = [
  {
    // One WebP thumbnail per image or video upload, whichever path stored it: an object created (direct
    // uploads, a chunked upload's CompleteMultipartUpload) or retagged (a presigned upload's
    // completion). Reads the file item (for an upload's object first its completion record, or its
    // pending item), records the thumbnail on it only while the file still has those bytes; reads
    // the image, writes (or, when the file went meanwhile, deletes) its thumbnail.
    handler: 'thumbnails/make',
    prefix: 'files/',
    events: ['s3:ObjectCreated:*', 's3:ObjectTagging:Put'],
    table: { items: { GetItem: ['USER'], UpdateItem: ['USER'] } },
    bucket: { GetObject: ['files/'], PutObject: ['thumbnails/'], DeleteObject: ['thumbnails/'] },
    native: 'sharp',
    // A video's thumbnail: ffmpeg reads its first second through a presigned GET (issue 37).
    ffmpeg: true,
  },
  {
    // A user's export (issue 36): started by the request object `POST /api/user/export` writes.
    // Reads the export and the user's files, writes the progress and the outcome (and releases the
    // running marker); reads each file's bytes, writes the zip (a multipart upload, aborted on
    // failure), deletes the request object (and the zip of an export deleted meanwhile).
    handler: 'exports/make',
    prefix: 'export-requests/',
    events: ['s3:ObjectCreated:*'],
    table: ACCESS.exportMake,
    bucket: BUCKET.exportMake,
    longRun: { memoryMb: 1024 },
  },
];

/**
 * A function other functions invoke asynchronously (Lambda's `Event` invocation), not a route: only
 * the handlers of `invokedBy` may invoke it (their roles alone hold `lambda:InvokeFunction` on it,
 * and they alone learn its name). Its grants are declared as a route's.
 */
export interface InvokedFunction {
  handler: string;
  invokedBy: readonly string[];
  /** Its timeout in AWS, in seconds. */
  timeoutSeconds: number;
  table?: TableAccess;
}

export const invokedFunctions: readonly InvokedFunction[] = [
  {
    // Webhooks (issue 38, docs/webhooks.md): one event for one target, announced by the functions that
    // store an upload (direct, chunked's last chunk, presigned's completion) or make a short link.
    // Reads the settings (the targets, the secret). 3 attempts of at most 5 s with 1 s and 4 s
    // between them: 30 s.
    handler: 'webhooks/deliver',
    invokedBy: ['files/upload', 'files/upload-partial', 'files/upload-complete', 'links/create'],
    timeoutSeconds: 30,
    table: ACCESS.settingsGet,
  },
];

/** A scheduled function's timeout in AWS (the stack's; tests/infra/stack.test.ts holds them equal). */
export const SCHEDULED_FUNCTION_SECONDS = 60;

/**
 * A function a schedule starts, not a route: every `everyMinutes` minutes in AWS (EventBridge), every
 * few seconds in the local runner. Its grants are declared as a route's.
 */
export interface ScheduledFunction {
  handler: string;
  everyMinutes: number;
  /**
   * Reserves no concurrency (the others reserve one run: infra/background.ts): for a function whose
   * overlapping runs do no harm and which runs too seldom to need a place kept.
   */
  unreserved?: true;
  table?: TableAccess;
  bucket?: BucketAccess;
}

export const scheduledFunctions: readonly ScheduledFunction[] = [
  {
    // The expiry sweep (files/expiry/sweep.ts): the due files from the expiry index; each file read, then
    // deleted with its name claim, counters share and folder membership in one transaction; its bytes and thumbnail;
    // a popular file's view counters (FILEVIEWS).
    handler: 'files/expire',
    everyMinutes: 1,
    table: {
      items: {
        GetItem: ['USER'],
        ConditionCheckItem: ['USER'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER', 'FILENAME', 'FOLDER'],
        BatchWriteItem: ['FILEVIEWS'],
      },
      indexes: [EXPIRY_INDEX],
    },
    bucket: BUCKET.delete,
  },
  {
    // Finishes user deletions that DELETE /api/users/{id} left under way (accounts/deletion.ts):
    // the pending ones from their partition, then what the deletion itself does.
    handler: 'users/continue-deletions',
    everyMinutes: 1,
    table: ACCESS.usersDeleteContinued,
    bucket: BUCKET.usersDelete,
  },
  {
    // The instance's figures of the day for GET /api/stats (metrics/collect.ts, docs/metrics.md).
    handler: 'metrics/daily',
    everyMinutes: 24 * 60,
    // Once a day, and two runs at once write the same day's item.
    unreserved: true,
    table: ACCESS.statsDaily,
  },
];

/** An item key prefix a table stream's filter passes (`sk` too when given: both must match). */
export interface StreamKeyFilter {
  pk: string;
  sk?: string;
}

/**
 * A function the table's stream (new and old images) feeds, in batches, not a route: only the
 * changes of items matching one of `filters` reach it (Lambda's event filter in AWS, the runner's
 * poller locally). It answers which records failed (ReportBatchItemFailures); a batch is retried
 * `retryAttempts` times (halved after a failure), then its place in the stream goes to a queue.
 * Its grants are declared as a route's.
 */
export interface StreamFunction {
  handler: string;
  filters: readonly StreamKeyFilter[];
  batchSize: number;
  batchingWindowSeconds: number;
  retryAttempts: number;
  table?: TableAccess;
}

export const streamFunctions: readonly StreamFunction[] = [
  {
    // The owners' view totals (docs/stats.md, "Views"): the items that hold views, a file's own and
    // the view counters (which name their owner), their deletions included. 100 records at most:
    // at most 100 owners, one transaction; up to 5 s of views folded into one write per owner.
    handler: 'views/totals',
    filters: [{ pk: 'USER#', sk: FILE_PREFIX }, { pk: 'FILEVIEWS#' }, { pk: 'LINKVIEWS#' }],
    batchSize: 100,
    batchingWindowSeconds: 5,
    retryAttempts: 10,
    table: ACCESS.viewTotals,
  },
];

/** Whether a changed item's keys pass one of a stream function's filters. */
export const passesStreamFilters = (
  filters: readonly StreamKeyFilter[],
  keys: { pk?: unknown; sk?: unknown },
) =>
  filters.some(
    (filter) =>
      String(keys.pk ?? '').startsWith(filter.pk) &&
      (filter.sk === undefined || String(keys.sk ?? '').startsWith(filter.sk)),
  );
