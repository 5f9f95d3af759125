import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { MAX_OBJECT_BYTES } from '#shared/files/bucket/multipart';
import { recordedType } from '#shared/files/content-type';
import type { ChunkHeaders } from '#shared/files/upload/chunked/receive';
import { validate } from '#shared/http/request';
import { isTrue, sent } from '#shared/http/upload-reply';
import { headersOf } from '#shared/http/zipline-headers';
import { uploadedNameSchema } from '#shared/validation/files/schemas';

const IDENTIFIER = /^[A-Za-z0-9_-]{1,64}$/;

/** A percent-encoded header value decoded; one that is not valid percent-encoding, as sent. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The chunk headers of a request, or null when it is no chunked upload (no `content-range`, which
 * `/api/upload/partial` requires).
 */
export function readChunkHeaders(headers: Record<string, string>, protocol: 'partial'): ChunkHeaders;
export function readChunkHeaders(headers: Record<string, string>, protocol: 'upload'): ChunkHeaders | null;
export function readChunkHeaders(
  headers: Record<string, string>,
  protocol: ChunkHeaders['protocol'],
): ChunkHeaders | null {
  const values = sent(headers);
  const range = values['content-range'];
  if (range === undefined && protocol === 'partial') {
    throw invalid('content-range is required: bytes <start>-<end>/<total>, the end exclusive');
  }
  if (range === undefined) {
    const stray = headersOf('chunk').find((name) => values[name] !== undefined);
    if (stray) throw invalid(`${stray} needs content-range: it belongs to a chunked upload`);
    return null;
  }
  const match = /^bytes (\d{1,16})-(\d{1,16})\/(\d{1,16})$/i.exec(range.trim());
  if (!match) throw invalid('content-range must be bytes <start>-<end>/<total>');
  const [start, end, total] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (end < start || total < 1 || total > MAX_OBJECT_BYTES || start >= total) {
    throw invalid(`content-range must lie within a total of 1 to ${MAX_OBJECT_BYTES} bytes`);
  }
  const declared = values['x-zipline-p-content-length'];
  if (declared !== undefined && Number(declared) !== total) {
    throw invalid('x-zipline-p-content-length must be the total of content-range');
  }
  const identifier = values['x-zipline-p-identifier'] ?? null;
  if (identifier !== null && !IDENTIFIER.test(identifier)) {
    throw invalid('x-zipline-p-identifier must be 1 to 64 letters, digits, - or _');
  }
  if (identifier === null && start > 0) {
    throw invalid('x-zipline-p-identifier is required: it names the upload this chunk belongs to');
  }
  const sentName = values['x-zipline-p-filename'] ?? 'file';
  // Zipline 4.4's uploader percent-encodes the name (`encodeURIComponent`); older clients sent it as is.
  const fileName = validate(uploadedNameSchema, protocol === 'partial' ? percentDecoded(sentName) : sentName);
  return {
    start,
    end,
    total,
    identifier,
    protocol,
    last: isTrue(values['x-zipline-p-lastchunk']),
    fileName,
    type: recordedType(values['x-zipline-p-content-type'], fileName),
  };
}

/** `DELETE /api/user/files/incomplete`: the ids `GET` listed (at most 100 at once). */
export const abandonIncompleteSchema = v.strictObject({
  id: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.regex(/^[0-9a-f]{32}$/, 'each id must be one GET /api/user/files/incomplete lists'),
      ),
    ),
    v.minLength(1, 'id must list at least one upload'),
    v.maxLength(100, 'id may list at most 100 uploads'),
  ),
});
