import { createHash, randomBytes } from 'node:crypto';
import { invalid, ServiceError } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import type { Uploader, UploadOptions } from '#shared/files/reservation/options';
import { type PendingUpload, sessionEnd } from '#shared/files/reservation/pending';
import { MIN_CHUNK_BYTES } from '#shared/files/reservation/staged-chunks';
import { append } from '#shared/files/upload/chunked/append';
import { complete } from '#shared/files/upload/chunked/assembly';
import { open } from '#shared/files/upload/chunked/open';
import { sessionReads, unknownUpload } from '#shared/files/upload/chunked/session';

/** One chunk of a chunked upload, as its headers describe it. */
export interface ChunkHeaders {
  start: number;
  /**
   * The range's end as sent: exclusive (Zipline's uploader), or on `/api/upload` also inclusive
   * (HTTP's reading, which older clients sent); the body's length decides there.
   */
  end: number;
  total: number;
  /** `x-zipline-p-identifier`; required on every chunk but the first. */
  identifier: string | null;
  /**
   * `partial`: Zipline 4.4's `/api/upload/partial`, whose identifiers only the server makes (an
   * unknown one is a 404, never a new upload) and whose range ends are exclusive. `upload`: the
   * older chunk headers on `/api/upload`, whose first chunk may name its own identifier.
   */
  protocol: 'partial' | 'upload';
  last: boolean;
  fileName: string;
  type: string;
}

/** One chunk as it arrived: its place in the file (from `content-range`) and its bytes. */
export interface Chunk extends ChunkHeaders {
  bytes: Buffer;
}

/** The pending item's id of a client's identifier: per user, so identifiers never meet. */
const uploadIdOf = (userId: string, identifier: string) =>
  createHash('sha256').update(`${userId}\n${identifier}`).digest('hex').slice(0, 32);

/**
 * Receives one chunk of a chunked upload (Zipline's `content-range` + `x-zipline-p-*`). The first
 * chunk opens the upload: the file and its declared size are reserved in the quota (like a presigned
 * upload, so a refused upload stores nothing) and an S3 multipart upload is created at the file's
 * key. Chunks must come in order; a chunk whose bytes were received already is a resend and changes
 * nothing. Answers the identifier and, after the last chunk, the recorded file (also to that chunk
 * sent again, while the file exists).
 */
export async function receiveChunk(
  user: Uploader,
  chunk: Chunk,
  options: UploadOptions,
): Promise<{ identifier: string; file: FileRecord | null }> {
  const length = chunk.bytes.length;
  // Zipline's uploader sends the end exclusive (`bytes 0-100/200` for 100 bytes), HTTP inclusive.
  const inclusiveEnd = chunk.protocol === 'upload' && chunk.end - chunk.start + 1 === length;
  if (length === 0 || (chunk.end - chunk.start !== length && !inclusiveEnd)) {
    // 4.4's route takes one reading only: say which.
    const expected = ` (the end exclusive: bytes ${chunk.start}-${chunk.start + length}/${chunk.total})`;
    throw invalid(
      `content-range does not match the chunk's ${length} bytes${chunk.protocol === 'partial' ? expected : ''}`,
    );
  }
  if (!chunk.last && length < MIN_CHUNK_BYTES) {
    throw invalid(
      `chunks but the last must be at least ${MIN_CHUNK_BYTES} bytes (64 KiB); this one has ${length}`,
    );
  }
  const until = chunk.start + length;
  if (until > chunk.total) throw invalid(`the chunk ends at byte ${until}, past the total of ${chunk.total}`);
  if (chunk.last !== (until === chunk.total)) {
    throw invalid(
      chunk.last
        ? `x-zipline-p-lastchunk is true, but the chunks end at byte ${until} of ${chunk.total}`
        : 'the chunk that reaches the total must say x-zipline-p-lastchunk: true',
    );
  }
  const identifier = chunk.identifier ?? randomBytes(16).toString('hex');
  const uploadId = uploadIdOf(user.id, identifier);
  const session = sessionReads(user.id, uploadId, chunk.total);
  let upload = await session.pending();
  if (!upload && chunk.last) {
    // The last chunk again after the file was recorded (its answer was lost): the same file.
    const file = await session.file();
    if (file) return { identifier, file };
  }
  // A partial upload's identifier is the server's: one it does not know opens nothing.
  const opens = chunk.start === 0 && (chunk.protocol === 'upload' || chunk.identifier === null);
  upload ??= opens ? await open(user, uploadId, identifier, chunk, options, session) : undefined;
  if (!upload?.chunked || sessionEnd(upload) <= Date.now()) throw unknownUpload();
  if (upload.size !== chunk.total) {
    throw invalid(`this upload was opened for ${upload.size} bytes, not ${chunk.total}`);
  }
  // A chunk whose bytes were received already is a resend: nothing to append. The last chunk's
  // resend before its file is recorded (the completion failed, or is under way in another request)
  // completes the upload again.
  let current: PendingUpload | undefined = upload;
  if (until > upload.chunked.received) {
    if (chunk.start !== upload.chunked.received) {
      throw new ServiceError('conflict', `this upload expects the chunk at byte ${upload.chunked.received}`);
    }
    // Undefined: completed (or reclaimed) by a concurrent request while this one carried the same chunk.
    current = await append(user.id, upload, upload.chunked, chunk, session);
    if (!current && !chunk.last) throw unknownUpload();
  }
  if (!chunk.last) return { identifier, file: null };
  // Undefined: a concurrent request completed it; then the file it became.
  const file = current ? await complete(user, current, session) : await session.file();
  if (!file) throw unknownUpload();
  return { identifier, file };
}
