import { DeleteCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, getItem, tableName } from '#shared/db/client';
import { isConditionFailure, LIVE_USER } from '#shared/db/expressions/conditions';
import { EXPORT_PREFIX, exportKey, exportRunningKey } from '#shared/db/keys/exports';
import { userKey } from '#shared/db/keys/users';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
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
    await transactWrite([
      { ConditionCheck: { Key: userKey(userId), ConditionExpression: LIVE_USER } },
      {
        Put: {
          Item: { ...exportRunningKey(userId), exportId: record.id, until: now + EXPORT_RUN_MS },
          ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
          ExpressionAttributeNames: { '#until': 'until' },
          ExpressionAttributeValues: { ':now': now },
        },
      },
      {
        Put: {
          Item: { ...exportKey(userId, record.id), entity: 'EXPORT', ...stored },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failedIndexes.includes(1)) {
      throw conflict(EXPORT_RUNNING);
    }
    if (error instanceof TransactionConditionFailed) throw notFound('user not found');
    throw error;
  }
  return record;
}

/** The user's exports, newest first, without those past their expiry (DynamoDB's TTL lags). */
export async function listExports(userId: string, now = Date.now()): Promise<ExportRecord[]> {
  const exports: ExportRecord[] = [];
  const pages = paginateQuery(
    { client: documents },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': EXPORT_PREFIX },
      ScanIndexForward: false,
    },
  );
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
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: exportKey(record.userId, record.id),
        UpdateExpression:
          'SET files = :files, filesDone = :done, #bytes = :bytes, bytesDone = :bytesDone, updatedAt = :at',
        ConditionExpression: '#state = :running',
        ExpressionAttributeNames: { '#state': 'state', '#bytes': 'bytes' },
        ExpressionAttributeValues: {
          ':files': progress.files,
          ':done': progress.filesDone,
          ':bytes': progress.bytes,
          ':bytesDone': progress.bytesDone,
          ':at': new Date().toISOString(),
          ':running': 'running',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Ends a run: the export completed (its size, and listed for `EXPORT_DAYS` from now) or failed (why),
 * and the running marker released, in one transaction. False when the export was deleted meanwhile.
 */
export async function finishExport(
  record: ExportRecord,
  outcome: ({ size: number } & ExportProgress) | { error: string },
  now = Date.now(),
): Promise<boolean> {
  const completed = 'size' in outcome;
  const values = completed
    ? {
        ':state': 'completed',
        ':size': outcome.size,
        ':files': outcome.files,
        ':done': outcome.filesDone,
        ':bytes': outcome.bytes,
        ':bytesDone': outcome.bytesDone,
      }
    : { ':state': 'failed', ':error': outcome.error };
  try {
    await transactWrite([
      {
        Update: {
          Key: exportKey(record.userId, record.id),
          UpdateExpression: completed
            ? 'SET #state = :state, size = :size, files = :files, filesDone = :done, #bytes = :bytes, bytesDone = :bytesDone, updatedAt = :at, expiresAt = :expires'
            : 'SET #state = :state, #error = :error, updatedAt = :at',
          ConditionExpression: '#state = :running',
          ExpressionAttributeNames: {
            '#state': 'state',
            ...(completed ? { '#bytes': 'bytes' } : { '#error': 'error' }),
          },
          ExpressionAttributeValues: {
            ...values,
            ':at': new Date(now).toISOString(),
            ':running': 'running',
            ...(completed ? { ':expires': expiresAtFrom(now) } : {}),
          },
        },
      },
      {
        Delete: {
          Key: exportRunningKey(record.userId),
          ConditionExpression: 'attribute_not_exists(pk) OR exportId = :id',
          ExpressionAttributeValues: { ':id': record.id },
        },
      },
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
    await documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: exportKey(userId, exportId),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw notFound(EXPORT_NOT_FOUND);
    throw error;
  }
  try {
    await documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: exportRunningKey(userId),
        ConditionExpression: 'exportId = :id',
        ExpressionAttributeValues: { ':id': exportId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return record;
}
