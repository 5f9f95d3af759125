import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { countFileView, downloadableFile, findNameClaim } from '#shared/files/store';
import type { ViewSettings } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/** What a view page and its embed know of the file's owner. */
export interface ViewOwner {
  username: string;
  view: ViewSettings;
}

/** The name that downloads carry, and so the page: the original name only when the upload asked. */
export const shownName = (file: FileRecord) => (file.downloadAsOriginalName ? file.originalName : file.name);

/**
 * The file published under `name` and its owner, when the owner has view pages on (and, with
 * `embed`, embeds too) and a download would be served now; else the download's own 404. `count`
 * counts the view (a GET of the page); otherwise nothing is counted.
 */
export async function findViewable(
  name: string,
  options: { count: boolean; embed?: boolean },
): Promise<{ file: FileRecord; owner: ViewOwner }> {
  const claim = await findNameClaim(name);
  if (!claim) throw notFound('file not found');
  const owner = await getUser(claim.userId);
  const shown = owner?.deletingAt === undefined && owner?.view.enabled === true;
  if (!owner || !shown || (options.embed && owner.view.embed !== true)) throw notFound('file not found');
  // A password-protected file is the 404 of an unknown name here (no password form yet): the count's
  // condition refuses it, and the uncounted path checks the same, so pages are no oracle for them.
  const file = options.count
    ? await countFileView(claim.userId, claim.fileId, null)
    : await downloadableFile(claim.userId, claim.fileId);
  if (!file || file.passwordHash !== null) throw notFound('file not found');
  return { file, owner: { username: owner.username, view: owner.view } };
}
