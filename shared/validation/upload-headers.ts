import ms from 'ms';
import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { NAME_FORMATS, SAFE_EXTENSION, uploadedFileName } from '#shared/files/names';
import type { UploadOptions } from '#shared/files/reservation/options';
import { isTrue, REPLY_HEADERS, sent } from '#shared/http/upload-reply';
import { fileNameSchema, isoDate, PAST_EXPIRY, readFilePassword } from '#shared/validation/files';

/**
 * Zipline v4's upload headers (its `parseHeaders` and its own uploader). Each is honoured as Zipline
 * defines it or refused with a 400 that names it; any other `x-zipline-*` header is refused too, so
 * nothing a client sends is silently ignored. An empty value means "not sent", as in Zipline.
 */
const UNSUPPORTED: Record<string, string> = {
  'x-zipline-folder': 'x-zipline-folder is not supported: there are no folders yet',
  'x-zipline-image-compression-percent':
    'x-zipline-image-compression-percent is not supported: files are stored as uploaded',
  'x-zipline-image-compression-type':
    'x-zipline-image-compression-type is not supported: files are stored as uploaded',
};

/** Chunked uploads (`content-range` with the `x-zipline-p-*` headers). */
export const CHUNK_HEADERS = [
  'content-range',
  'x-zipline-p-filename',
  'x-zipline-p-content-type',
  'x-zipline-p-identifier',
  'x-zipline-p-lastchunk',
  'x-zipline-p-content-length',
] as const;

const FILE_HEADERS = [
  'x-zipline-format',
  'x-zipline-max-views',
  'x-zipline-deletes-at',
  'x-zipline-original-name',
  'x-zipline-filename',
  'x-zipline-file-extension',
  'x-zipline-extensionless',
  'x-zipline-password',
] as const;

const MAX_VIEWS = 2 ** 31 - 1;
const MAX_LIFETIME_MS = 10 * 365.25 * 86_400_000;

/**
 * `x-zipline-deletes-at`: what the `ms` library reads (`1 day`, `2 weeks`, `10m`, `1.5h`), `date=`
 * followed by a date (`date=2030-01-01T00:00:00Z`), a bare ISO 8601 date, or `never`; the moment
 * must lie ahead, at most ten years out. A readable moment that is not ahead (a past date, `-1d`, `0`)
 * gets its own 400: stored, it would have the file deleted by the next sweep, without a word.
 */
function readDeletesAt(value: string | undefined, now = Date.now()): string | null {
  if (value === undefined || value.trim().toLowerCase() === 'never') return null;
  const at = momentOf(value.trim(), now);
  if (at === undefined || at > now + MAX_LIFETIME_MS) {
    throw invalid(
      'x-zipline-deletes-at must be a lifetime (30m, 1 day, 2 weeks), date=<ISO 8601 date>, or never, at most 10 years ahead',
    );
  }
  if (at <= now) throw invalid(`x-zipline-deletes-at must be ahead of now: ${PAST_EXPIRY}`);
  return new Date(at).toISOString();
}

function momentOf(text: string, now: number): number | undefined {
  if (/^date=/i.test(text) || /^\d{4}-\d{2}-\d{2}T/i.test(text)) {
    const parsed = v.safeParse(isoDate, text.replace(/^date=/i, ''));
    return parsed.success ? Date.parse(parsed.output) : undefined;
  }
  // ms throws on input over 100 characters and answers undefined (or NaN) for what it cannot read.
  let lifetime: number | undefined;
  try {
    lifetime = ms(text as ms.StringValue);
  } catch {
    return undefined;
  }
  if (typeof lifetime !== 'number' || !Number.isFinite(lifetime)) return undefined;
  const at = now + lifetime;
  return Number.isFinite(at) ? at : undefined;
}

function readFormat(value: string | undefined): UploadOptions['format'] {
  if (value === undefined) return 'random';
  const format = value.trim().toLowerCase();
  if (!(NAME_FORMATS as readonly string[]).includes(format)) {
    throw invalid(`x-zipline-format must be one of ${NAME_FORMATS.join(', ')}`);
  }
  return format as UploadOptions['format'];
}

function readMaxViews(value: string | undefined): number | null {
  if (value === undefined) return null;
  const views = /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(views >= 1 && views <= MAX_VIEWS)) {
    throw invalid(`x-zipline-max-views must be an integer from 1 to ${MAX_VIEWS}`);
  }
  return views;
}

/**
 * `x-zipline-filename`: the public name instead of a generated one (the extension is added unless
 * it already ends with it). Zipline's own uploader percent-encodes it, so it is decoded; then the
 * same rules as every file name apply.
 */
function readFilename(value: string | undefined): string | null {
  if (value === undefined) return null;
  let name = value;
  try {
    name = decodeURIComponent(value);
  } catch {
    // Not percent-encoded: taken as sent.
  }
  const result = v.safeParse(fileNameSchema, name);
  // The one name rule of uploads, refused rather than rewritten: the client chose this name.
  if (!result.success || uploadedFileName(result.output) !== result.output) {
    throw invalid(
      'x-zipline-filename must be a file name of 1 to 255 bytes without slashes, control characters, quotes or < > ? # %',
    );
  }
  return result.output;
}

/** `x-zipline-file-extension`: with or without its dot, letters and digits only. */
function readExtension(value: string | undefined): string | null {
  if (value === undefined) return null;
  const extension = value.trim().startsWith('.') ? value.trim() : `.${value.trim()}`;
  if (!SAFE_EXTENSION.test(extension)) {
    throw invalid('x-zipline-file-extension must be 1 to 16 letters or digits, e.g. png');
  }
  return extension.toLowerCase();
}

/** The upload options as sent: the password in the clear, for the handler to hash. */
export type UploadHeaderOptions = Omit<UploadOptions, 'passwordHash'> & { password: string | null };

function refuseUnknown(headers: Record<string, string>, allowed: readonly string[]): void {
  const known: readonly string[] = [...FILE_HEADERS, ...REPLY_HEADERS, ...CHUNK_HEADERS];
  for (const name of Object.keys(headers)) {
    const message = UNSUPPORTED[name];
    if (message) throw invalid(message);
    if (allowed.includes(name)) continue;
    if ((CHUNK_HEADERS as readonly string[]).includes(name)) {
      throw invalid(`${name}: chunked uploads are not supported on this route`);
    }
    if (known.includes(name)) throw invalid(`${name} is not supported on this route`);
    if (name.startsWith('x-zipline-')) throw invalid(`${name} is not supported`);
  }
}

/**
 * The file options of a request's `x-zipline-*` headers; anything unreadable or unsupported is a
 * 400 naming the header. `allowed` lists the other Zipline headers the route itself reads.
 */
export function readUploadOptions(
  headers: Record<string, string>,
  allowed: readonly string[] = [],
): UploadHeaderOptions {
  const values = sent(headers);
  refuseUnknown(values, [...FILE_HEADERS, ...allowed]);
  const deletesAt = readDeletesAt(values['x-zipline-deletes-at']);
  return {
    format: readFormat(values['x-zipline-format']),
    maxViews: readMaxViews(values['x-zipline-max-views']),
    deletesAt,
    downloadAsOriginalName: isTrue(values['x-zipline-original-name']),
    filename: readFilename(values['x-zipline-filename']),
    extension: readExtension(values['x-zipline-file-extension']),
    extensionless: isTrue(values['x-zipline-extensionless']),
    password: readFilePassword(values['x-zipline-password'], 'x-zipline-password'),
  };
}
