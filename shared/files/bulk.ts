import { forEachConcurrently } from '#shared/concurrency';
import { ServiceError } from '#shared/errors';
import { isFileId } from '#shared/files/names';
import { changeFile } from '#shared/files/record/changes';
import { retagFile, TagLimitReached } from '#shared/files/record/file-tags';
import { FolderClosed } from '#shared/files/record/folder-membership';
import { moveFile } from '#shared/files/record/folder-moves';
import { UnknownTag } from '#shared/files/record/memberships';

/**
 * `PATCH`/`DELETE /api/user/files/transaction` (issue 35): one change applied to up to 1,000 of the
 * caller's files. Each file changes in its own transaction (its item, its counters, its folder's
 * member item and counter, its name claim), conditional on the version it was read at: it changes
 * exactly once or not at all, whatever runs beside it. DynamoDB's 100-item transactions cannot hold a
 * thousand files, so the request as a whole is not atomic; its answer says what happened to each file
 * that did not change instead: `missing` (not the caller's file, unknown, or deleted meanwhile: never
 * touched, never told apart, so no one learns which ids exist) and `failed` (the target folder
 * or an added tag was deleted meanwhile, or the file would pass 20 tags).
 */

export const MAX_BULK_FILES = 1000;
/** A request body that holds 1,000 ids (about 29 KB of JSON) with room to spare: past the default 16 KiB. */
export const BULK_BODY_BYTES = 64 * 1024;
/** Files changed at once: each is a read and a transaction. */
const CONCURRENCY = 16;

/** One change for every file. `tags`: these added, those removed (file-tags.ts). */
export type BulkChange =
  | { favorite: boolean }
  | { folder: string | null }
  | { tags: { add: string[]; remove: string[] } };

/** What leaves a file as it was, reported in `failed`: the change cannot apply to it now. */
const refused = (error: unknown) =>
  error instanceof FolderClosed || error instanceof UnknownTag || error instanceof TagLimitReached;

export interface BulkResult {
  /** Files that changed (a file already as asked does not count). */
  count: number;
  missing: string[];
  failed: string[];
}

/** Applies `apply` to each distinct id, sorting out what did not change (see above). */
export async function forEachFile(
  ids: string[],
  apply: (id: string) => Promise<boolean>,
): Promise<BulkResult> {
  const result: BulkResult = { count: 0, missing: [], failed: [] };
  const unique = [...new Set(ids)];
  const errors: unknown[] = [];
  await forEachConcurrently(unique, CONCURRENCY, async (id) => {
    if (!isFileId(id)) {
      result.missing.push(id);
      return;
    }
    try {
      if (await apply(id)) result.count++;
    } catch (error) {
      if (refused(error)) result.failed.push(id);
      else if (error instanceof ServiceError && error.kind === 'not_found') result.missing.push(id);
      else errors.push(error);
    }
  });
  // An outage: the files that changed stay changed (each whole); the caller may send the request again.
  if (errors.length > 0) throw errors[0];
  return result;
}

export function changeFiles(userId: string, ids: string[], change: BulkChange): Promise<BulkResult> {
  if ('favorite' in change) {
    return forEachFile(
      ids,
      async (id) => (await changeFile(userId, id, { favorite: change.favorite })).changed,
    );
  }
  if ('tags' in change) return forEachFile(ids, (id) => retagFile(userId, id, change.tags));
  return forEachFile(ids, (id) => moveFile(userId, id, change.folder));
}
