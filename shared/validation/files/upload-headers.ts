import ms from 'ms';
import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { isFileId, NAME_FORMATS, SAFE_EXTENSION } from '#shared/files/names';
import type { UploadOptions } from '#shared/files/reservation/options';
import {
  COMPRESSED_TYPES,
  type CompressedType,
  type ImageCompression,
} from '#shared/files/upload/compression-types';
import { isTrue, sent } from '#shared/http/upload-reply';
import { type ZiplineHeaderGroup, ziplineHeader } from '#shared/http/zipline-headers';
import type { ServerSettings } from '#shared/settings/model';
import {
  chosenFileNameSchema,
  isoDate,
  PAST_EXPIRY,
  readFilePassword,
} from '#shared/validation/files/schemas';

/**
 * The groups of the Zipline header table each upload route reads: the direct upload the file's, the
 * answer's and (with `content-range`) a chunk's; the presigned start the file's alone.
 */
const READS = {
  upload: ['file', 'reply', 'chunk'],
  presignedStart: ['file'],
} as const satisfies Record<string, readonly ZiplineHeaderGroup[]>;

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

export function readMaxViews(value: string | undefined): number | null {
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
  const result = v.safeParse(chosenFileNameSchema, name);
  if (!result.success) {
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

/**
 * Each header of the Zipline table is honoured, accepted, or refused with its 400; one of another
 * route's groups is a 400 naming it. A header the table does not hold is ignored, as Zipline does.
 */
function refuseUnusable(headers: Record<string, string>, groups: readonly ZiplineHeaderGroup[]): void {
  for (const name of Object.keys(headers)) {
    const header = ziplineHeader(name);
    if (header === undefined || header.group === 'session') continue;
    if (header.support === 'refused') throw invalid(header.message);
    if (groups.includes(header.group)) continue;
    if (header.group === 'chunk') throw invalid(`${name}: chunked uploads are not supported on this route`);
    throw invalid(`${name} is not supported on this route`);
  }
}

/** The values Zipline takes; `jxl` among them, which is refused (`readImageCompression`). */
const COMPRESSION_TYPES = ['jpg', 'jpeg', 'png', 'webp', 'jxl'];

/**
 * `x-zipline-image-compression-percent` and `-type` (Zipline's mobile and web uploaders send them by
 * default): checked as Zipline checks them, on every upload route. With a percent, images are
 * re-encoded at that quality to the type (`jpeg` is `jpg`; none: `jpg`, as Zipline); a type without a
 * percent changes nothing, as in Zipline. `jxl` is a 400: sharp's build writes no JPEG XL, and
 * Zipline, failing the same way, would store the image as sent without a word.
 */
export function readImageCompression(headers: Record<string, string>): ImageCompression | null {
  const values = sent(headers);
  const percent = values['x-zipline-image-compression-percent'];
  if (percent !== undefined && !(/^\s*\d{1,3}\s*$/.test(percent) && Number(percent) <= 100)) {
    throw invalid('x-zipline-image-compression-percent must be an integer from 0 to 100');
  }
  const sentType = values['x-zipline-image-compression-type']?.trim().toLowerCase();
  if (sentType !== undefined && !COMPRESSION_TYPES.includes(sentType)) {
    throw invalid(`x-zipline-image-compression-type must be one of ${COMPRESSION_TYPES.join(', ')}`);
  }
  const type = sentType === undefined || sentType === 'jpeg' ? 'jpg' : sentType;
  if (!(type in COMPRESSED_TYPES)) {
    throw invalid(
      `x-zipline-image-compression-type ${type} is not supported: this service writes no JPEG XL; send jpg, png or webp`,
    );
  }
  if (percent === undefined) return null;
  return { quality: Math.max(1, Number(percent)), type: type as CompressedType };
}

/**
 * What an upload that does not say gets (server settings, issue 38): the name format, and the
 * lifetime (`7d`), read as `x-zipline-deletes-at` would be.
 */
export type UploadDefaults = Pick<ServerSettings, 'filesDefaultFormat' | 'filesDefaultExpiration'>;

/**
 * The file options of a request's `x-zipline-*` headers, for the upload route `on`; anything
 * unreadable or refused is a 400 naming the header.
 */
export function readUploadOptions(
  headers: Record<string, string>,
  on: keyof typeof READS,
  defaults: UploadDefaults,
): UploadHeaderOptions {
  const values = sent(headers);
  refuseUnusable(values, READS[on]);
  readImageCompression(values);
  const deletesAt = readDeletesAt(
    values['x-zipline-deletes-at'] ?? defaults.filesDefaultExpiration ?? undefined,
  );
  return {
    format: readFormat(values['x-zipline-format'] ?? defaults.filesDefaultFormat),
    maxViews: readMaxViews(values['x-zipline-max-views']),
    deletesAt,
    downloadAsOriginalName: isTrue(values['x-zipline-original-name']),
    filename: readFilename(values['x-zipline-filename']),
    extension: readExtension(values['x-zipline-file-extension']),
    extensionless: isTrue(values['x-zipline-extensionless']),
    password: readFilePassword(values['x-zipline-password'], 'x-zipline-password'),
    folderId: readFolder(values['x-zipline-folder']),
  };
}

/** `x-zipline-folder`: a folder's id (whose it is and whether it is open, the upload checks). */
function readFolder(value: string | undefined): string | null {
  if (value === undefined) return null;
  const id = value.trim();
  if (!isFileId(id)) throw invalid('x-zipline-folder: folder not found');
  return id;
}
