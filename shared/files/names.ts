import { randomBytes, randomUUID } from 'node:crypto';
import { extname } from 'node:path';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

function base32(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += CROCKFORD[byte & 31];
  return out;
}

/**
 * A time-ordered id (ULID layout, lowercase): 10 characters of milliseconds, 16 random. The base
 * table's sort key is `FILE#<id>`, so id order is creation order and both listings need no index.
 */
export function newFileId(now = Date.now()): string {
  let time = '';
  for (let rest = now, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  return time + base32(randomBytes(16));
}

/** The millisecond a time-ordered id was made at. */
export function fileIdTime(id: string): number {
  let time = 0;
  for (const char of id.slice(0, 10)) time = time * 32 + CROCKFORD.indexOf(char);
  return time;
}

/** How the public name is chosen (`x-zipline-format`); `gfycat` has no word list here and is `random`. */
export const NAME_FORMATS = ['random', 'uuid', 'date', 'name', 'gfycat'] as const;
export type NameFormat = (typeof NAME_FORMATS)[number];

const SAFE_EXTENSION = /^\.[A-Za-z0-9]{1,16}$/;

export function newPublicName(format: NameFormat, originalName: string, now = new Date()): string {
  const extension = extname(originalName);
  const suffix = SAFE_EXTENSION.test(extension) ? extension.toLowerCase() : '';
  switch (format) {
    case 'uuid':
      return randomUUID() + suffix;
    case 'date':
      return `${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${base32(randomBytes(4))}${suffix}`;
    case 'name':
      return originalName;
    default:
      return base32(randomBytes(8)) + suffix;
  }
}
