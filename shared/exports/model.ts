import { newFileId } from '#shared/files/names';

/**
 * A user's export (issue 36): a zip of every file they own and a manifest of their metadata, made by
 * the export function (functions/exports/make.ts) and downloadable until it expires (docs/exports.md).
 */

/** How long a finished export stays listed and downloadable (the bucket's lifecycle rule matches it). */
export const EXPORT_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;
/**
 * How long a run may hold the user's one running export: Lambda's 15 minutes and a minute of
 * slack. A run that died without saying so (killed at its timeout) no longer blocks a new export
 * after this, and is listed as failed.
 */
export const EXPORT_RUN_MS = 16 * 60 * 1000;

export type ExportState = 'running' | 'completed' | 'failed';

/** An export as stored (its item in the owner's partition). */
export interface ExportRecord {
  id: string;
  userId: string;
  state: ExportState;
  /** Files to write (known once the run has read the user's files; 0 before). */
  files: number;
  /** Files written so far. */
  filesDone: number;
  /** Bytes of the files to write (known with `files`), and of those written so far. */
  bytes: number;
  bytesDone: number;
  /** Bytes of the zip once completed (0 before). */
  size: number;
  createdAt: string;
  updatedAt: string;
  /** When the export stops being listed and its zip is deleted (epoch seconds: the table's TTL). */
  expiresAt: number;
  /** Why a failed export failed (said to its owner: never a stack trace). */
  error: string | null;
}

/**
 * Zipline 4.4's Export fields (`id`, `createdAt`, `updatedAt`, `completed`, `path`, `files`, `size`
 * as a string of bytes), and this service's progress: `state`, `filesDone`, `bytes` and `bytesDone`
 * (the files' bytes to write and written, numbers), `expiresAt`, `error`.
 */
export interface ExportResource {
  id: string;
  createdAt: string;
  updatedAt: string;
  completed: boolean;
  state: ExportState;
  path: string;
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
  size: string;
  expiresAt: string;
  error: string | null;
}

export const newExportId = newFileId;
export const isExportId = (value: string) => /^[0-9a-z]{26}$/.test(value);

/** The zip's key in the bucket: under the owner's prefix of `exports/`, named as it downloads. */
export const exportObjectKey = (userId: string, exportId: string) => `exports/${userId}/${exportId}.zip`;
/**
 * The small object whose creation starts the export function (S3's notification on this prefix):
 * `{userId, exportId}`. The bucket's lifecycle rule removes what a run left behind after a day.
 */
export const EXPORT_REQUEST_PREFIX = 'export-requests/';
export const exportRequestKey = (userId: string, exportId: string) =>
  `${EXPORT_REQUEST_PREFIX}${userId}/${exportId}.json`;

/** The download's file name: `export-<date>-<id>.zip`. */
export const exportFileName = (record: ExportRecord) =>
  `export-${record.createdAt.slice(0, 10)}-${record.id}.zip`;

export const expiresAtFrom = (now: number) => Math.floor((now + EXPORT_DAYS * DAY_MS) / 1000);

/** A run that outlived Lambda's limit without finishing has failed, whatever its item still says. */
export function effectiveState(record: ExportRecord, now = Date.now()): ExportState {
  if (record.state === 'running' && now - Date.parse(record.createdAt) > EXPORT_RUN_MS) return 'failed';
  return record.state;
}

export function toExportResource(record: ExportRecord, now = Date.now()): ExportResource {
  const state = effectiveState(record, now);
  return {
    id: record.id,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    completed: state === 'completed',
    state,
    path: exportFileName(record),
    files: record.files,
    filesDone: record.filesDone,
    bytes: record.bytes,
    bytesDone: record.bytesDone,
    size: String(record.size),
    expiresAt: new Date(record.expiresAt * 1000).toISOString(),
    error: state === 'failed' ? (record.error ?? 'the export did not finish in time') : null,
  };
}
