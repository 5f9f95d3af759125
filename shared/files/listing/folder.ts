import { findExpiredFiles } from '#shared/files/expiry/expired';
import { type FilePage, type ListOptions, listScope, notIn } from '#shared/files/listing/listing';
import { folderScope } from '#shared/files/listing/walk';

/**
 * One page of a folder's files (`GET /api/user/files?folder=<id>`, the public `/folder/{id}`), in
 * any order of the library's: the folder's member items (files/record/folder-membership.ts) carry
 * their file's index keys under the folder's index partition, so a page is the library's walk over
 * the folder's entries (`perpage` index entries, or member items in id order) and one BatchGetItem
 * of the page's files. Nothing reads the rest of the owner's library: a page costs the same in a
 * library of 100 files or 100,000 (docs/folders.md). A numbered deep page skips the order's compact
 * entries first, as the library's does; a cursor (bound to the user, folder and order) resumes at
 * once. A file past its expiry the sweep has not deleted yet is left out.
 */
export async function listFolderFiles(
  userId: string,
  folderId: string,
  options: ListOptions,
): Promise<Omit<FilePage, 'total'>> {
  const expired = await findExpiredFiles(userId, new Date());
  const cursorScope = `folder:${userId}:${folderId}:${options.sortBy}:${options.order}:${options.filter}:${options.favoriteOnly}`;
  return listScope(userId, folderScope(userId, folderId), cursorScope, options, notIn(expired));
}
