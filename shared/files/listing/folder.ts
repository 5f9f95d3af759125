import { decodeCursor, encodeCursor } from '#shared/db/cursor';
import { FILE_PREFIX, fileKey } from '#shared/db/keys/files';
import { folderMemberKey } from '#shared/db/keys/folders';
import { queryItems } from '#shared/db/table-calls';
import { invalid } from '#shared/errors';
import { type FileRecord, isExpired } from '#shared/files/model';
import { batchGetFiles } from '#shared/files/record/store';

/**
 * One page of a folder's files (`GET /api/user/files?folder=<id>`), newest or oldest first: a Query
 * of the folder's own partition (its member items, `folderMemberKey`, sorted by file id, so by
 * creation) for `perpage` members, then one BatchGetItem of their files. Nothing reads the rest of
 * the owner's library, so a page costs the same in a library of 100 files or 100,000 (docs/folders.md).
 * A numbered deep page first skips `(page - 1) × perpage` member keys; a cursor resumes at once.
 * The total is the folder's counter; a file past its expiry the sweep has not deleted yet is left
 * out of the page.
 */

export interface FolderPageOptions {
  order: 'asc' | 'desc';
  perpage: number;
  page: number;
  cursor?: string;
}

const cursorScope = (userId: string, folderId: string, order: string) =>
  `folder:${userId}:${folderId}:${order}`;

type Key = Record<string, unknown>;

const members = (folderId: string, order: 'asc' | 'desc', limit: number, start: Key | undefined) =>
  queryItems({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': folderMemberKey(folderId, '').pk, ':prefix': FILE_PREFIX },
    ScanIndexForward: order === 'asc',
    ProjectionExpression: 'pk, sk',
    Limit: limit,
    ExclusiveStartKey: start,
  });

/** Where a numbered page starts: after `count` members (undefined: the start), null past the end. */
async function skip(folderId: string, order: 'asc' | 'desc', count: number): Promise<Key | undefined | null> {
  let start: Key | undefined;
  let left = count;
  while (left > 0) {
    const page = await members(folderId, order, Math.min(left, 10_000), start);
    left -= page.Items?.length ?? 0;
    if (left > 0 && !page.LastEvaluatedKey) return null;
    start = page.LastEvaluatedKey ?? (page.Items ?? []).at(-1);
  }
  return start;
}

export async function listFolderFiles(
  userId: string,
  folderId: string,
  options: FolderPageOptions,
): Promise<{ files: FileRecord[]; nextCursor: string | undefined }> {
  const scope = cursorScope(userId, folderId, options.order);
  const start =
    options.cursor === undefined
      ? await skip(folderId, options.order, (options.page - 1) * options.perpage)
      : await decodeCursor(scope, options.cursor);
  if (start === null) return { files: [], nextCursor: undefined };
  if (start !== undefined && start.pk !== folderMemberKey(folderId, '').pk) throw invalid('invalid cursor');
  const page = await members(folderId, options.order, options.perpage, start);
  const ids = (page.Items ?? []).map((item) => String(item.sk).slice(FILE_PREFIX.length));
  const found = new Map(
    (await batchGetFiles(ids.map((id) => fileKey(userId, id)))).map((file) => [file.id, file]),
  );
  const now = new Date();
  const files = ids.flatMap((id) => {
    const file = found.get(id);
    return file && !isExpired(file, now) ? [file] : [];
  });
  const last = page.LastEvaluatedKey;
  return { files, nextCursor: last ? await encodeCursor(scope, { pk: last.pk, sk: last.sk }) : undefined };
}
