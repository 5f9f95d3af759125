import { getItem } from '#shared/db/client';
import { isConditionFailure, unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { EXPORT_PREFIX, exportKey, exportRunningKey } from '#shared/db/keys/exports';
import { userKey } from '#shared/db/keys/users';
import { deleteIn, deleteItem, putIn, queryPages, updateIn, updateItem } from '#shared/db/table-calls';
import { TransactionConditionFailed, transactAsActiveOwner, transactWrite } from '#shared/db/transact';
import { conflict, notFound } from '#shared/errors';
import {
  EXPORT_RUN_MS,
  type ExportRecord,
  type ExportState,
  expiresAtFrom,
  newExportId,
} from '#shared/exports/model';

/** How far a run has got: files and their bytes, to write and written. */
export interface ExportProgress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
}

export const EXPORT_NOT_FOUND = 'export not found';
export const EXPORT_RUNNING = 'an export is already running: wait for it to finish, or delete it';

const fromExportItem = (item: Record<string, unknown>): ExportRecord => ({
  id: String(item.id),
  userId: String(item.userId),
  state: item.state as ExportState,
  files: Number(item.files ?? 0),
  filesDone: Number(item.filesDone ?? 0),
  bytes: Number(item.bytes ?? 0),
  bytesDone: Number(item.bytesDone ?? 0),
  size: Number(item.size ?? 0),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
  expiresAt: Number(item.expiresAt),
  error: typeof item.error === 'string' ? item.error : null,
});

/**
 * Starts an export in one transaction: the user is live, no export of theirs is running (the
 * running marker is absent, or left by a run older than Lambda's limit), the export item and the
 * marker. Two POSTs at once: one export, the other 409.
 */
export async function createExport(userId: string, now = Date.now()): Promise<ExportRecord> {
  const at = new Date(now).toISOString();
  const record: ExportRecord = {
    id: newExportId(now),
    userId,
    state: 'running',
    files: 0,
    filesDone: 0,
    bytes: 0,
    bytesDone: 0,
    size: 0,
    createdAt: at,
    updatedAt: at,
    expiresAt: expiresAtFrom(now),
    error: null,
  };
  const { error: _none, ...stored } = record;
  try {
    await transactAsActiveOwner(userId, [
      putIn(
        { ...exportRunningKey(userId), exportId: record.id, until: now + EXPORT_RUN_MS },
        {
          ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':now': now },
        },
      ),
      putIn(
        { ...exportKey(userId, record.id), entity: 'EXPORT', ...stored },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failedIndexes.includes(0)) {
      throw conflict(EXPORT_RUNNING);
    }
    throw error;
  }
  return record;
}

/** The user's exports, newest first, without those past their expiry (DynamoDB's TTL lags). */
export async function listExports(userId: string, now = Date.now()): Promise<ExportRecord[]> {
  const exports: ExportRecord[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': EXPORT_PREFIX },
    ScanIndexForward: false,
  });
  for await (const page of pages) {
    for (const item of page.Items ?? []) exports.push(fromExportItem(item));
  }
  return exports.filter((record) => record.expiresAt * 1000 > now);
}

/** One export of the user's, or 404 (another user's, expired, or none). */
export async function getExport(userId: string, exportId: string, now = Date.now()): Promise<ExportRecord> {
  const item = await getItem(exportKey(userId, exportId), { consistent: true });
  if (!item || Number(item.expiresAt) * 1000 <= now) throw notFound(EXPORT_NOT_FOUND);
  return fromExportItem(item);
}

/** The export a run is for, while it is still running (deleted or finished: undefined). */
export async function runningExport(userId: string, exportId: string): Promise<ExportRecord | undefined> {
  const item = await getItem(exportKey(userId, exportId), { consistent: true });
  return item?.state === 'running' ? fromExportItem(item) : undefined;
}

/**
 * Records a run's progress, only while the export exists and runs: false when its owner deleted
 * it meanwhile (the run then stops and leaves nothing behind).
 */
export async function recordProgress(record: ExportRecord, progress: ExportProgress): Promise<boolean> {
  const update = whileRunning(progressSet(new UpdateBuilder(), progress, new Date()));
  const written = await unlessConditionFails(updateItem(exportKey(record.userId, record.id), update.build()));
  return written !== undefined;
}

/** Sets a run's progress and when it was written. */
const progressSet = (update: UpdateBuilder, progress: ExportProgress, at: Date) =>
  update
    .set('files', progress.files)
    .set('filesDone', progress.filesDone)
    .set('bytes', progress.bytes)
    .set('bytesDone', progress.bytesDone)
    .set('updatedAt', at.toISOString());

/** The export's write holds only while it runs (a deleted or finished export is left as it is). */
const whileRunning = (update: UpdateBuilder) =>
  update.when(`${update.name('state')} = ${update.value('running')}`);

/**
 * Ends a run: the export completed (its size, and listed for `EXPORT_DAYS` from now) or failed (why),
 * and the running marker released, in one transaction. False when the export was deleted meanwhile.
 */
export async function finishExport(
  record: ExportRecord,
  outcome: ({ size: number } & ExportProgress) | { error: string },
  now = Date.now(),
): Promise<boolean> {
  const update = whileRunning(new UpdateBuilder());
  if ('size' in outcome) {
    progressSet(update, outcome, new Date(now))
      .set('state', 'completed')
      .set('size', outcome.size)
      .set('expiresAt', expiresAtFrom(now));
  } else {
    update.set('state', 'failed').set('error', outcome.error).set('updatedAt', new Date(now).toISOString());
  }
  try {
    await transactWrite([
      updateIn(exportKey(record.userId, record.id), update.build()),
      deleteIn(exportRunningKey(record.userId), {
        ConditionExpression: 'attribute_not_exists(pk) OR exportId = :id',
        ExpressionAttributeValues: { ':id': record.id },
      }),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return false;
    throw error;
  }
}

/**
 * Deletes the user's export item (and the running marker when it is this export's, so a new export
 * may start at once); answers what was deleted, or 404. The caller deletes the zip.
 */
export async function deleteExportItem(userId: string, exportId: string): Promise<ExportRecord> {
  const record = await getExport(userId, exportId);
  try {
    await deleteItem(exportKey(userId, exportId), { ConditionExpression: 'attribute_exists(pk)' });
  } catch (error) {
    if (isConditionFailure(error)) throw notFound(EXPORT_NOT_FOUND);
    throw error;
  }
  await unlessConditionFails(
    deleteItem(exportRunningKey(userId), {
      ConditionExpression: 'exportId = :id',
      ExpressionAttributeValues: { ':id': exportId },
    }),
  );
  return record;
}
