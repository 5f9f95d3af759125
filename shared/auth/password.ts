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
