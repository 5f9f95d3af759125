/**
 * The form a username is compared in: two names that fold alike are the same name (the claim key in
 * `keys/users.ts`). Look-alikes are caught by the skeleton (`users/names/username-skeleton.ts`).
 */

/**
 * NFKC with full case folding (`NFKC_Casefold` in spirit): `ＡＤＭＩＮ`, `Admin` and `admin` are one
 * name, so are `Straße` and `STRASSE`. JavaScript has no case-fold function; upper- then lower-casing
 * applies the full (one-to-many) mappings such as ß → ss and final sigma ς → σ.
 */
export function foldUsername(username: string): string {
  return username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
