import { invalid } from '#shared/errors';
import { type FileRecord, toUploadResult } from '#shared/files/model';
import { requestOrigin } from '#shared/http/origin';
import type { HttpRequest } from '#shared/http/request';
import { type HttpResult, json, text } from '#shared/http/response';

/** Zipline reads its flags as `value === 'true'`: anything else (a file name, `yes`) is false. */
export const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/** The headers a request sent with a value (Zipline treats an empty header as absent). */
export function sent(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value.trim() !== ''));
}

/** How an answer listing files is shaped (the table's `reply` group, and `deletes-at: never`). */
export interface ReplyOptions {
  /** The URLs as plain text, comma-separated (Zipline's `x-zipline-no-json`). */
  plainText: boolean;
  /** `x-zipline-deletes-at: never` was sent: the answer says `deletesAt: "never"`, as Zipline's. */
  neverDeletes: boolean;
  /** The host the returned URLs name instead of the one the request reached. */
  host: string | null;
}

const HOST =
  /^(?=[^:]{1,253}(:|$))[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/i;

/**
 * `x-zipline-domain`: a host name (with an optional port), or a comma-separated list of them of
 * which one is picked at random, as Zipline does. A scheme, path or anything else is a 400.
 */
function readHost(value: string | undefined): string | null {
  if (value === undefined) return null;
  const hosts = value.split(',').map((host) => host.trim().toLowerCase());
  for (const host of hosts) {
    const port = Number(host.split(':')[1] ?? '1');
    if (!HOST.test(host) || port < 1 || port > 65_535) {
      throw invalid('x-zipline-domain must be a host name such as files.example.com (or a list of them)');
    }
  }
  return hosts[Math.floor(Math.random() * hosts.length)] as string;
}

/** Read before anything is stored: a bad value is a 400 that changes nothing. */
export function readReplyOptions(headers: Record<string, string>): ReplyOptions {
  const values = sent(headers);
  return {
    plainText: isTrue(values['x-zipline-no-json']),
    neverDeletes: values['x-zipline-deletes-at']?.trim().toLowerCase() === 'never',
    host: readHost(values['x-zipline-domain']),
  };
}

function answered(request: HttpRequest, reply: ReplyOptions, files: FileRecord[]) {
  const result = toUploadResult(files, requestOrigin(request, reply.host ?? undefined));
  return reply.neverDeletes && files.length > 0 ? { ...result, deletesAt: 'never' } : result;
}

/**
 * The answer to an upload: `{files, deletesAt?}` with absolute URLs on the host the request reached
 * (or `x-zipline-domain`'s), `deletesAt: "never"` when the client asked for that, `compressed: true`
 * on the files whose image was re-encoded (`compressed[i]` for `files[i]`; absent otherwise, as
 * Zipline leaves it out); or with `x-zipline-no-json: true` the URLs as plain text, joined with
 * commas as Zipline joins them.
 */
export function uploadReply(
  request: HttpRequest,
  reply: ReplyOptions,
  files: FileRecord[],
  compressed: readonly boolean[] = [],
): HttpResult {
  const result = answered(request, reply, files);
  if (reply.plainText) return text(200, result.files.map((file) => file.url).join(','));
  const entries = result.files.map((entry, index) =>
    compressed[index] ? { ...entry, compressed: true } : entry,
  );
  return json(200, { ...result, files: entries });
}

/**
 * The answer to a chunk (Zipline's shape): `partialSuccess: true` and the upload's identifier, which
 * every later chunk names (null: left out, as `/api/upload/partial` answers it to the first chunk
 * only); after the last chunk the file, assembled already (`pending: false`).
 */
export function chunkReply(
  request: HttpRequest,
  reply: ReplyOptions,
  identifier: string | null,
  file: FileRecord | null,
): HttpResult {
  const files = file ? [file] : [];
  if (reply.plainText) return uploadReply(request, reply, files);
  const result = answered(request, reply, files);
  return json(200, {
    ...result,
    files: result.files.map((entry) => ({ ...entry, pending: false })),
    partialSuccess: true,
    ...(identifier === null ? {} : { partialIdentifier: identifier }),
  });
}
