import { randomBytes } from 'node:crypto';
import { compare, hash } from '@node-rs/bcrypt';
import { config } from '#shared/config/service';

/**
 * bcrypt lives here alone so that only the handlers that hash or verify passwords import the native
 * module (and the deployed bundles of other routes do not carry it).
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, config().bcryptCost);
}

/** A file password's hash, or null for none (`x-zipline-password`, PATCH `password`). */
export async function hashOptionalPassword(password: string | null): Promise<string | null> {
  return password === null ? null : hashPassword(password);
}

// Computed at cold start, so even the first unknown-username login costs one bcrypt compare, not two.
const dummyHash = hash('not a real password', config().bcryptCost);

/**
 * Verifies a password against a stored hash; with no hash (unknown user, or an account made by a
 * provider sign-in that has no password: `NO_PASSWORD`) it still does the same bcrypt work against a
 * dummy hash, so response time reveals neither whether a username exists nor whether it has a password.
 */
export async function verifyPassword(password: string, storedHash: string | undefined): Promise<boolean> {
  if (storedHash === undefined || storedHash === '') {
    await compare(password, await dummyHash);
    return false;
  }
  return compare(password, storedHash);
}

/** A bcrypt hash as `hashPassword` makes them (and Zipline 3 did): kept as is by an import. */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

// Made once per cold start from 32 random bytes nobody keeps: no password matches it.
let lockedHash: Promise<string> | undefined;

/**
 * The hash an imported file or link keeps for its Zipline password (issue 40): none stays none, a
 * bcrypt hash stays itself, and anything else (Zipline 4's argon2 hashes, or `true` where its API
 * only says that there is one) becomes a hash no password matches, so the file stays protected
 * (never opened up) until its owner sets a new password (docs/migrate-from-zipline.md).
 */
export async function importedPasswordHash(given: string | boolean | null): Promise<string | null> {
  if (given === null || given === false || given === '') return null;
  if (typeof given === 'string' && BCRYPT_HASH.test(given)) return given;
  lockedHash ??= hashPassword(randomBytes(32).toString('base64'));
  return lockedHash;
}
