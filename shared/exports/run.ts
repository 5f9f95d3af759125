import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { ZipFile } from 'yazl';
import { FILE_PREFIX } from '#shared/db/keys/files';
import { userKey } from '#shared/db/keys/users';
import { queryPages } from '#shared/db/table-calls';
import { type ArchiveProgress, ArchiveStopped, fillArchive, outputOf } from '#shared/exports/archive';
import { ManifestFile } from '#shared/exports/manifest';
import { EXPORT_REQUEST_PREFIX, exportObjectKey, exportRequestKey } from '#shared/exports/model';
import { uploadStream } from '#shared/exports/parts';
import { type ExportProgress, finishExport, recordProgress, runningExport } from '#shared/exports/store';
import type { FileRecord } from '#shared/files/model';
import { fromFileItem } from '#shared/files/record/items';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * One export's run (the export function's work): the user's files read from the table, the zip
 * streamed into S3, the outcome recorded. Bounded by Lambda's 15 minutes: with less than
 * `STOP_MARGIN_MS` left before a file, the run stops, aborts its upload and records the export as
 * failed with how far it got (docs/exports.md: the measured throughput and the bound it implies).
 */
export const STOP_MARGIN_MS = 90_000;
/** Progress is written at most this often (50,000 small files would otherwise be 50,000 writes). */
const PROGRESS_EVERY_MS = 1000;

export type RunOutcome = 'completed' | 'failed' | 'gone';

/** `export-requests/<userId>/<exportId>.json`: the run's owner and export, or undefined. */
export function requestOf(key: string): { userId: string; exportId: string } | undefined {
  const match = /^([^/]+)\/([0-9a-z]{26})\.json$/.exec(key.slice(EXPORT_REQUEST_PREFIX.length));
  if (!key.startsWith(EXPORT_REQUEST_PREFIX) || !match) return undefined;
  return { userId: match[1] as string, exportId: match[2] as string };
}

/** The user's file items a page (1 MB) at a time, in id (upload) order, from the base table. */
function filePages(userId: string, projection?: { expression: string; names: Record<string, string> }) {
  return queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': FILE_PREFIX },
    ...(projection
      ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names }
      : {}),
  });
}

/** Every file of the user, one page held at a time (never the whole list: 50 MB for 50,000 files). */
async function* filesOf(userId: string): AsyncIterable<FileRecord> {
  for await (const page of filePages(userId)) for (const item of page.Items ?? []) yield fromFileItem(item);
}

/**
 * How many files the run has to write and their bytes, for its progress: a first pass over the file
 * items reading only their size (the items' read units all the same: 6,250 for 50,000 files, $0.002).
 */
async function totalsOf(userId: string): Promise<{ files: number; bytes: number }> {
  const totals = { files: 0, bytes: 0 };
  for await (const page of filePages(userId, { expression: '#size', names: { '#size': 'size' } })) {
    for (const item of page.Items ?? []) {
      totals.files += 1;
      totals.bytes += Number(item.size ?? 0);
    }
  }
  return totals;
}

export async function runExport(
  userId: string,
  exportId: string,
  timeLeftMs: () => number,
): Promise<RunOutcome> {
  const requestKey = exportRequestKey(userId, exportId);
  // A retry of a run that ended (or an export deleted meanwhile) finds nothing running.
  const record = await runningExport(userId, exportId);
  const outcome = record ? await writeExport(userId, record, timeLeftMs) : 'gone';
  await s3.send(new DeleteObjectCommand({ Bucket: bucketName, Key: requestKey }));
  return outcome;
}

async function writeExport(
  userId: string,
  record: NonNullable<Awaited<ReturnType<typeof runningExport>>>,
  timeLeftMs: () => number,
): Promise<RunOutcome> {
  const key = exportObjectKey(userId, record.id);
  const totals = await totalsOf(userId);
  const progressOf = (done: ArchiveProgress): ExportProgress => ({ ...done, ...totals });
  if (!(await recordProgress(record, progressOf({ filesDone: 0, bytesDone: 0 })))) return 'gone';
  const manifest = await ManifestFile.create();
  let deleted = false;
  let lastWrite = Date.now();
  const zip = new ZipFile();
  const output = outputOf(zip);
  const uploading = uploadStream(key, output);
  // An upload that fails stops the archive too (it may be waiting for the upload to drain).
  uploading.catch((error: unknown) => output.destroy(error as Error));
  try {
    const { written, bytesDone } = await fillArchive(zip, filesOf(userId), manifest, {
      progress: async (done) => {
        if (Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = Date.now();
        deleted = !(await recordProgress(record, progressOf(done)));
      },
      goOn: () => !deleted && timeLeftMs() > STOP_MARGIN_MS,
    });
    const size = await uploading;
    // What was written: files deleted meanwhile are left out, files added meanwhile counted.
    const finished = await finishExport(record, {
      size,
      files: written,
      filesDone: written,
      bytes: bytesDone,
      bytesDone,
    });
    if (finished) return 'completed';
    // Deleted while it was being finished: nothing of it stays.
    await s3.send(new DeleteObjectCommand({ Bucket: bucketName, Key: key }));
    return 'gone';
  } catch (error) {
    output.destroy();
    await uploading.catch(() => undefined);
    if (deleted) return 'gone';
    if (!(error instanceof ArchiveStopped)) {
      await finishExport(record, { error: 'the export failed: start another' });
      throw error;
    }
    await finishExport(record, {
      error: `too large for one run: ${error.filesDone} of ${totals.files} files were written in Lambda's 15 minutes`,
    });
    return 'failed';
  } finally {
    await manifest.remove();
  }
}
