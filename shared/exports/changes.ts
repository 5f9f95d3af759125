import { conflict } from '#shared/errors';
import {
  type ExportRecord,
  effectiveState,
  exportFileName,
  exportObjectKey,
  exportRequestKey,
} from '#shared/exports/model';
import { createExport, deleteExportItem, finishExport, getExport } from '#shared/exports/store';
import { deleteObjects, putObject } from '#shared/files/bucket/objects';
import { presignDownload } from '#shared/files/bucket/presigned-urls';

/** How long an export's download link works: long enough to be followed, not to be passed around. */
export const EXPORT_LINK_SECONDS = 300;

/**
 * Starts an export: its item and the running marker (store.ts), then the request object whose
 * creation S3 notifies the export function of, which runs apart (Lambda's asynchronous invocation):
 * the caller gets the export at once, running. If the request cannot be written, the export is
 * failed at once, so it never blocks the next.
 */
export async function startExport(userId: string): Promise<ExportRecord> {
  const record = await createExport(userId);
  const request = Buffer.from(JSON.stringify({ userId, exportId: record.id }));
  try {
    await putObject(exportRequestKey(userId, record.id), request, 'application/json');
  } catch (error) {
    await finishExport(record, { error: 'the export could not be started: try again' });
    throw error;
  }
  return record;
}

/** A short-lived link to a completed export's zip (409 while it runs or after it failed). */
export async function exportDownloadUrl(userId: string, exportId: string): Promise<string> {
  const record = await getExport(userId, exportId);
  if (effectiveState(record) !== 'completed') throw conflict('the export is not completed');
  return presignDownload(exportObjectKey(userId, exportId), 'application/zip', exportFileName(record), {
    attachment: true,
    expiresIn: EXPORT_LINK_SECONDS,
  });
}

/** Deletes one of the user's exports: its item, then its zip (a run under way stops at its next file). */
export async function deleteExport(userId: string, exportId: string): Promise<ExportRecord> {
  const record = await deleteExportItem(userId, exportId);
  await deleteObjects([exportObjectKey(userId, exportId)]);
  return record;
}
