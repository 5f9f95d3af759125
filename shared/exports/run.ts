import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { ZipFile } from 'yazl';
import { documents, tableName } from '#shared/db/client';
import { FILE_PREFIX } from '#shared/db/keys/files';
import { userKey } from '#shared/db/keys/users';
import { ArchiveStopped, fillArchive, outputOf } from '#shared/exports/archive';
import { EXPORT_REQUEST_PREFIX, exportObjectKey, exportRequestKey } from '#shared/exports/model';
import { uploadStream } from '#shared/exports/parts';
import { finishExport, recordProgress, runningExport } from '#shared/exports/store';
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

/** Every file of the user, in id (upload) order, from the base table. */
async function filesOf(userId: string): Promise<FileRecord[]> {
  const files: FileRecord[] = [];
  const pages = paginateQuery(
    { client: documents },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': FILE_PREFIX },
    },
  );
  for await (const page of pages) for (const item of page.Items ?? []) files.push(fromFileItem(item));
  return files;
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
  const files = await filesOf(userId);
  if (!(await recordProgress(record, { files: files.length, filesDone: 0 }))) return 'gone';
  let deleted = false;
  let lastWrite = Date.now();
  const zip = new ZipFile();
  const output = outputOf(zip);
  const uploading = uploadStream(key, output);
  // An upload that fails stops the archive too (it may be waiting for the upload to drain).
  uploading.catch((error: unknown) => output.destroy(error as Error));
  try {
    const written = await fillArchive(zip, files, {
      progress: async (filesDone) => {
        if (Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = Date.now();
        deleted = !(await recordProgress(record, { files: files.length, filesDone }));
      },
      goOn: () => !deleted && timeLeftMs() > STOP_MARGIN_MS,
    });
    const size = await uploading;
    const finished = await finishExport(record, { size, files: files.length, filesDone: written });
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
      error: `too large for one run: ${error.filesDone} of ${files.length} files were written in Lambda's 15 minutes`,
    });
    return 'failed';
  }
}
