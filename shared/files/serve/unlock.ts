import { config } from '#shared/config/service';
import { ServiceError } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { addressSubject } from '#shared/throttle/address';
import { type Attempt, countAttempt, refundAttempt } from '#shared/throttle/counter';

/** A password check: bcrypt against the hash, or the same work against a dummy when there is none. */
export type PasswordCheck = (password: string, hash: string | undefined) => Promise<boolean>;

/** A password given for a public name (`/raw?pw=`, the view page's form). */
export interface PasswordGuess {
  value: string;
  /** The client's address (`requestContext.http.sourceIp`): guesses are counted per address too. */
  sourceIp: string;
  /** bcrypt: only the functions that check passwords load it. */
  check: PasswordCheck;
}

/**
 * The one gate for a password given for a public name. `find` reads what the name would serve
 * (undefined: nothing); it must cost the same reads for a known name as for an unknown one.
 *
 * Before `find` reads anything, the guess is counted per client address (every bcrypt compare, right
 * or wrong: the bound on anonymous bcrypt work) and per name (wrong guesses: a right one gives its
 * attempt back). At a name whose own limit is used up, each address still gets a few checks of its
 * own, so a stranger's wrong guesses cannot close a file for its viewers; past those, 429. Every
 * refusal therefore comes before any read or bcrypt: it costs the same whether the name exists or
 * not. A file without a password passes and gives both attempts back (no bcrypt was done). An
 * unknown name costs the bcrypt work of a wrong password. Counts no view.
 */
export async function unlockWithPassword(
  name: string,
  guess: PasswordGuess,
  find: () => Promise<FileRecord | undefined>,
): Promise<FileRecord | undefined> {
  const limits = config().throttle;
  const address = addressSubject(guess.sourceIp);
  const byAddress = await countAttempt({
    scope: 'file-password-address',
    subject: address,
    max: limits.filePasswordPerAddress,
  });
  const byName = await countNameGuess(name, address);
  const file = await find();
  if (file?.passwordHash === null) {
    await Promise.all([refundAttempt(byAddress), refundAttempt(byName.attempt)]);
    return file;
  }
  const right = await guess.check(guess.value, file?.passwordHash);
  if (!right || !file) {
    // At a throttled name a wrong guess is refused as the name's (the 429 the next guess would get).
    if (byName.throttled) throw byName.throttled;
    return undefined;
  }
  await refundAttempt(byName.attempt);
  return file;
}

/**
 * Counts a guess against the name's limit; when that is used up, against the address's few checks
 * at that name (`throttled` keeps the name's refusal for a wrong guess). Past both: 429.
 */
async function countNameGuess(
  name: string,
  address: string,
): Promise<{ attempt: Attempt; throttled?: ServiceError }> {
  const limits = config().throttle;
  try {
    return {
      attempt: await countAttempt({ scope: 'file-password', subject: name, max: limits.filePasswordPerFile }),
    };
  } catch (error) {
    if (!(error instanceof ServiceError && error.kind === 'rate_limited')) throw error;
    const attempt = await countAttempt({
      scope: 'file-password-throttled-name',
      // Length-prefixed: no name and address pair spells another's.
      subject: `${address.length}:${address}${name}`,
      max: limits.filePasswordPerAddressAtThrottledName,
    });
    return { attempt, throttled: error };
  }
}
