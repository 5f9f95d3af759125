import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { findNameClaim, STAND_IN_CLAIM } from '#shared/files/record/name-claims';
import { type PasswordGuess, unlockWithPassword } from '#shared/files/serve/unlock';
import { countReadView, countSeenView, isServable } from '#shared/files/serve/view-count';
import type { UserRecord, ViewSettings } from '#shared/users/model';
import { getFileAndOwner } from '#shared/view/file/file-and-owner';

/** What a view page and its embed know of the file's owner. */
export interface ViewOwner {
  username: string;
  view: ViewSettings;
}

/** The name that downloads carry, and so the page: the original name only when the upload asked. */
export const shownName = (file: FileRecord) => (file.downloadAsOriginalName ? file.originalName : file.name);

/** A password given on the page's form: the guess `/raw?pw=`'s gate counts and checks. */
export type GivenPassword = PasswordGuess;

export interface ViewableOptions {
  /** Count the view (a GET of the page, a POST of its form); otherwise nothing is counted. */
  count: boolean;
  /** The page must also have embeds on (oEmbed). */
  embed?: boolean;
  password?: GivenPassword;
  /** `/u/`: an owner without view pages does not refuse; the file is answered instead (`page: false`). */
  orFile?: boolean;
}

/** The file to answer, its owner, and whether the owner shows it on a view page. */
export interface Viewable {
  file: FileRecord;
  owner: ViewOwner;
  page: boolean;
}

/**
 * The file published under `name` and its owner, when the owner has view pages on (and, with
 * `embed`, embeds too; with `orFile`, whatever the setting) and a download would be served now; else
 * the download's own 404. `count` counts the view, once, whichever way it is then answered.
 * A protected file needs `password`: without it, it is the 404 of an unknown name. With it, every
 * outcome goes through `unlockWithPassword`, the gate `/raw?pw=` uses: the guess is counted per
 * address and per name before any read, and bcrypt runs whatever else refused, so the form is no
 * oracle either.
 */
export async function findViewable(name: string, options: ViewableOptions): Promise<Viewable> {
  if (options.password) return unlockViewable(name, options, options.password);
  const claim = await findNameClaim(name);
  // Two reads (the claim, then the owner and the file together) and at most the count's one write.
  const { file: seen, owner } = claim ? await getFileAndOwner(claim.userId, claim.fileId) : {};
  if (!claim || !owner || !isAnswered(owner, options) || !seen) throw notFound('file not found');
  // A protected file needs the form: the 404 of an unknown name here, and the count refuses it too.
  if (seen.passwordHash !== null || !isServable(seen)) throw notFound('file not found');
  const file = options.count ? await countSeenView(claim.userId, seen) : seen;
  if (!file) throw notFound('file not found');
  return viewable(file, owner, options);
}

const isShown = (owner: UserRecord, options: ViewableOptions) =>
  owner.view.enabled === true && (options.embed !== true || owner.view.embed === true);

/** Whether the name answers at all: its owner is not being deleted, and shows it or `/u/` asked. */
const isAnswered = (owner: UserRecord, options: ViewableOptions) =>
  owner.deletingAt === undefined && (options.orFile === true || isShown(owner, options));

const viewable = (file: FileRecord, owner: UserRecord, options: ViewableOptions): Viewable => ({
  file,
  owner: { username: owner.username, view: owner.view },
  page: isShown(owner, options),
});

/**
 * The password form's way in: every outcome goes through `unlockWithPassword`, the gate `/raw?pw=`
 * uses. The page's reads (the claim, then owner and file in one batch) come after the guess is
 * counted, and an unknown name reads as much (at `STAND_IN_CLAIM`), so nothing tells names apart.
 */
async function unlockViewable(
  name: string,
  options: ViewableOptions,
  password: GivenPassword,
): Promise<Viewable> {
  let found: { claim: { userId: string; fileId: string }; owner: UserRecord } | undefined;
  const unlocked = await unlockWithPassword(name, password, async () => {
    const claim = (await findNameClaim(name)) ?? STAND_IN_CLAIM;
    const { file, owner } = await getFileAndOwner(claim.userId, claim.fileId);
    if (!owner || !isAnswered(owner, options) || !file || !isServable(file)) return undefined;
    found = { claim, owner };
    return file;
  });
  if (!unlocked || !found) throw notFound('file not found');
  const { claim, owner } = found;
  const file = options.count ? await countReadView(claim.userId, unlocked, unlocked.passwordHash) : unlocked;
  if (!file) throw notFound('file not found');
  return viewable(file, owner, options);
}
