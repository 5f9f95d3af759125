import { createHash } from 'node:crypto';
import unhomoglyph from 'unhomoglyph';

/**
 * The forms a username is compared in. Two names that fold alike are the same name; two whose
 * skeletons match look alike (UTS #39). Both are stored as constraint items (see `keys.ts`).
 */

/**
 * NFKC with full case folding (`NFKC_Casefold` in spirit): `ＡＤＭＩＮ`, `Admin` and `admin` are one
 * name, so are `Straße` and `STRASSE`. JavaScript has no case-fold function; upper- then lower-casing
 * applies the full (one-to-many) mappings such as ß → ss and final sigma ς → σ.
 */
export function foldUsername(username: string): string {
  return username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * The UTS #39 skeleton of the folded name: NFD, Unicode's confusables.txt mapping (`unhomoglyph`,
 * generated from that file), NFD again. `аdmin` (Cyrillic а) and `admin` share one; so do the
 * Cyrillic `асе` and the Latin `ace`. Hashed: the mapping can lengthen a name (m → rn) and the key
 * stays bounded.
 */
export function usernameSkeletonHash(username: string): string {
  const skeleton = unhomoglyph(foldUsername(username).normalize('NFD')).normalize('NFD');
  return createHash('sha256').update(skeleton).digest('base64url');
}
