import { createHash } from 'node:crypto';
// Unicode's confusables.txt as a map (the `unhomoglyph` package's data). Imported as JSON, not through
// the package's CommonJS entry, so bundles that never compute a skeleton leave the 115 KB out.
import confusables from 'unhomoglyph/data.json' with { type: 'json' };
import { foldUsername } from '#shared/db/username-forms';

const MAPPING = confusables as Record<string, string>;
const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
let confusable: RegExp | undefined;

/**
 * The UTS #39 skeleton of the folded name, hashed: NFD, each confusable replaced by its prototype
 * (longest match first, as `unhomoglyph` does), NFD again. `аdmin` (Cyrillic а) and `admin` share
 * one; so do the Cyrillic `асе` and the Latin `ace`. Hashed because the mapping lengthens names
 * (m → rn) and the key must stay bounded.
 */
export function usernameSkeletonHash(username: string): string {
  confusable ??= new RegExp(
    Object.keys(MAPPING)
      .sort((a, b) => b.length - a.length)
      .map(escapeForRegExp)
      .join('|'),
    'g',
  );
  const skeleton = foldUsername(username)
    .normalize('NFD')
    .replace(confusable, (match) => MAPPING[match] ?? match)
    .normalize('NFD');
  return createHash('sha256').update(skeleton).digest('base64url');
}
