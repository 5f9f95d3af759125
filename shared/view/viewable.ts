import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { countFileView, downloadableFile, findNameClaim } from '#shared/files/store';
import { type PasswordCheck, unlockWithPassword } from '#shared/files/unlock';
import type { ViewSettings } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/** What a view page and its embed know of the file's owner. */
export interface ViewOwner {
  username: string;
  view: ViewSettings;
}

/** The name that downloads carry, and so the page: the original name only when the upload asked. */
export const shownName = (file: FileRecord) => (file.downloadAsOriginalName ? file.originalName : file.name);

/** A password given on the page's form, and how to check it (bcrypt: only that function loads it). */
export interface GivenPassword {
  value: string;
  check: PasswordCheck;
}

/**
 * The file published under `name` and its owner, when the owner has view pages on (and, with
 * `embed`, embeds too) and a download would be served now; else the download's own 404. `count`
 * counts the view (a GET of the page, or a POST of its password form); otherwise nothing is counted.
 * A protected file needs `password`: without it, it is the 404 of an unknown name. With it, every
 * outcome goes through `unlockWithPassword`, the gate `/raw?pw=` uses: the guess is counted per name
 * and bcrypt runs whatever else refused, so the form is no oracle either.
 */
export async function findViewable(
  name: string,
  options: { count: boolean; embed?: boolean; password?: GivenPassword },
): Promise<{ file: FileRecord; owner: ViewOwner }> {
  const claim = await findNameClaim(name);
  const owner = claim && (await getUser(claim.userId));
  const shown =
    owner !== undefined &&
    owner.deletingAt === undefined &&
    owner.view.enabled === true &&
    (options.embed !== true || owner.view.embed === true);
  if (!claim || !owner || !shown) {
    if (options.password)
      await unlockWithPassword(name, undefined, options.password.value, options.password.check);
    throw notFound('file not found');
  }
  let file: FileRecord | undefined;
  if (options.password) {
    const candidate = await downloadableFile(claim.userId, claim.fileId);
    const unlocked = await unlockWithPassword(
      name,
      candidate,
      options.password.value,
      options.password.check,
    );
    file =
      unlocked && options.count
        ? await countFileView(claim.userId, claim.fileId, unlocked.passwordHash)
        : unlocked;
  } else {
    // The count's condition refuses a protected file, and the uncounted path checks the same.
    file = options.count
      ? await countFileView(claim.userId, claim.fileId, null)
      : await downloadableFile(claim.userId, claim.fileId);
    if (file?.passwordHash !== null) file = undefined;
  }
  if (!file) throw notFound('file not found');
  return { file, owner: { username: owner.username, view: owner.view } };
}
