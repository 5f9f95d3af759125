import { randomBytes, randomUUID } from 'node:crypto';
import { extname } from 'node:path';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** `length` random characters, 5 bits each (32 divides 256, so every symbol is equally likely). */
function randomBase32(length: number): string {
  let out = '';
  for (const byte of randomBytes(length)) out += CROCKFORD[byte & 31];
  return out;
}

/**
 * A time-ordered id (ULID layout, lowercase): 10 characters of milliseconds, 16 random. The base
 * table's sort key is `FILE#<id>`, so id order is creation order and both listings need no index.
 */
export function newFileId(now = Date.now()): string {
  let time = '';
  for (let rest = now, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  return time + randomBase32(16);
}

/** Whether `value` has the shape of a `newFileId()` (a public name may have it too). */
export const isFileId = (value: string) => /^[0-9a-z]{26}$/.test(value);

/** Names are sort keys of the file indexes: bounded well inside DynamoDB's 1,024-byte key limit. */
export const MAX_NAME_BYTES = 255;

/**
 * How the public name is chosen (`x-zipline-format`). `gfycat` and its current name `random-words`
 * have no word list here and are `random`: every generated name carries 64 random bits or more.
 */
export const NAME_FORMATS = ['random', 'uuid', 'date', 'name', 'gfycat', 'random-words'] as const;
export type NameFormat = (typeof NAME_FORMATS)[number];

export const SAFE_EXTENSION = /^\.[A-Za-z0-9]{1,16}$/;
/**
 * A generated name is the only secret of its unauthenticated `/raw/{name}` link: 13 characters of
 * 5 bits, 65 random bits, whatever else (a timestamp) the name shows.
 */
const RANDOM_NAME_CHARS = 13;

/** Characters that change the meaning of a URL path or of markup, and control and format characters. */
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}<>?#%"'`]/gu;

/**
 * The one rule for the name of an uploaded file, multipart or presigned: the last path segment
 * (clients send `C:\\x\\a.txt` or `dir/a.txt`), unsafe characters replaced by `_`, and `file` for a
 * name that is empty or a dot segment. It is the original name and, with `x-zipline-format: name`,
 * the public one.
 */
export function uploadedFileName(sent: string): string {
  const name = (sent.split(/[/\\]/).pop() ?? '').trim().replace(UNSAFE_IN_NAME, '_');
  return name === '' || name === '.' || name === '..' ? 'file' : name;
}

/** What decides a public name besides the uploaded one (the `x-zipline-*` naming headers). */
export interface Naming {
  format: NameFormat;
  /** `x-zipline-filename`: the name itself, instead of the format's. */
  filename: string | null;
  /** `x-zipline-file-extension` (with its dot), instead of the uploaded name's. */
  extension: string | null;
  /** `x-zipline-extensionless`: no extension at all. */
  extensionless: boolean;
}

/** The client chose the name (`format: name` or `x-zipline-filename`): a taken one is its error. */
export const isChosenName = (naming: Naming) => naming.format === 'name' || naming.filename !== null;

const withExtension = (base: string, extension: string) =>
  extension === '' || base.toLowerCase().endsWith(extension) ? base : base + extension;

export function newPublicName(naming: Naming, originalName: string, now = new Date()): string {
  const uploaded = extname(originalName);
  const extension = naming.extensionless
    ? ''
    : (naming.extension ?? (SAFE_EXTENSION.test(uploaded) ? uploaded.toLowerCase() : ''));
  if (naming.filename !== null) return withExtension(naming.filename, extension);
  switch (naming.format) {
    case 'uuid':
      return randomUUID() + extension;
    case 'date':
      return `${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}-${randomBase32(RANDOM_NAME_CHARS)}${extension}`;
    case 'name':
      if (naming.extension === null && !naming.extensionless) return originalName;
      return withExtension(
        originalName.slice(0, originalName.length - uploaded.length) || originalName,
        extension,
      );
    default:
      return randomBase32(RANDOM_NAME_CHARS) + extension;
  }
}
