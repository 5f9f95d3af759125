import { config } from '#shared/config';
import type { FileRecord } from '#shared/files/model';
import { countAttempt, refundAttempt } from '#shared/throttle/counter';

/** A password check: bcrypt against the hash, or the same work against a dummy when there is none. */
export type PasswordCheck = (password: string, hash: string | undefined) => Promise<boolean>;

/**
 * The one gate for a password given for a public name (`/raw?pw=`, the view page's form): `file` is
 * what the name would serve (undefined: nothing). A file without a password passes. Otherwise each
 * guess at a protected or unknown name is counted per name before the bcrypt work (429 past the
 * limit), and an unknown name costs the same bcrypt work as a wrong password: answers and timing say
 * nothing about which names are protected. A right password gives its attempt back, so a shared
 * link's viewers never use up the limit. Counts no view.
 */
export async function unlockWithPassword(
  name: string,
  file: FileRecord | undefined,
  password: string,
  checkPassword: PasswordCheck,
): Promise<FileRecord | undefined> {
  if (file && file.passwordHash === null) return file;
  const attempt = await countAttempt({
    scope: 'file-password',
    subject: name,
    max: config().throttle.filePasswordPerFile,
  });
  if (!(await checkPassword(password, file?.passwordHash ?? undefined)) || !file) return undefined;
  await refundAttempt(attempt);
  return file;
}
