import { invalid } from '#shared/errors';
import { listFolderFiles } from '#shared/files/listing/folder';
import type { ListOptions } from '#shared/files/listing/listing';
import { requireFolder } from '#shared/folders/store';

/**
 * `GET /api/user/files?folder=<id>`: the folder's files in any order of the main listing, paged by
 * number or cursor as the main listing; the total is the folder's counter. A `favorite` or
 * `dashboard` filter and a search are a 400: the folder counts its files, not its favourites or
 * media (so a filtered page could not say its total), and a search would read the whole folder
 * (docs/folders.md).
 */
export async function folderPage(
  userId: string,
  folderId: string,
  options: ListOptions & { searchQuery?: string },
) {
  if (options.favoriteOnly || options.filter === 'dashboard' || options.searchQuery) {
    throw invalid('folder cannot be combined with favorite, filter=dashboard or searchQuery');
  }
  const folder = await requireFolder(userId, folderId);
  const page = await listFolderFiles(userId, folderId, options);
  return {
    files: page.files,
    total: folder.files,
    pages: Math.ceil(folder.files / options.perpage),
    nextCursor: page.nextCursor,
  };
}
