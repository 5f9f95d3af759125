import { hashOptionalPassword } from '#shared/auth/password';
import { uploaderOf } from '#shared/auth/uploader';
import { CHUNK_BYTES, UPLOAD_BODY_LIMIT } from '#shared/files/upload/chunked/limits';
import { receiveChunk } from '#shared/files/upload/chunked/receive';
import { announceUploads } from '#shared/http/announce';
import { defineHandler } from '#shared/http/handler';
import { readFileParts } from '#shared/http/multipart';
import { chunkReply, readReplyOptions } from '#shared/http/upload-reply';
import { currentSettings } from '#shared/settings/current';
import { readChunkHeaders } from '#shared/validation/files/chunk-headers';
import { readUploadOptions } from '#shared/validation/files/upload-headers';

/**
 * `POST /api/upload/partial`, Zipline 4.4's chunked upload: one chunk per request, its place in
 * `content-range` (the end exclusive). The first chunk carries no identifier: the server makes one
 * and answers it (`partialIdentifier`, on that answer only); later chunks send it back in
 * `x-zipline-p-identifier`; the last one (`x-zipline-p-lastchunk: true`) answers the file. The same
 * upload machinery as the chunk headers on `/api/upload` (S3 multipart, quota reserved at the first
 * chunk, resends idempotent, at most 4 uploads pending per user).
 */
export const handler = defineHandler(
  async (request) => {
    const { password, ...options } = readUploadOptions(request.headers, 'upload', await currentSettings());
    // Who uploads before the chunk's headers: a cross-site or signed-out request is refused as such.
    const user = await uploaderOf(request, options.folderId);
    const chunk = readChunkHeaders(request.headers, 'partial');
    const reply = readReplyOptions(request.headers);
    const [part] = await readFileParts(request, { files: 1 });
    // The password is hashed once, when the first chunk opens the upload.
    const passwordHash = chunk.start === 0 ? await hashOptionalPassword(password) : null;
    const bytes = part?.bytes ?? Buffer.alloc(0);
    const received = await receiveChunk(user, { ...chunk, bytes }, { ...options, passwordHash });
    const identifier = chunk.start === 0 ? received.identifier : null;
    await announceUploads(request, reply, user, [received.file]);
    return chunkReply(request, reply, identifier, received.file);
  },
  {
    bodyLimit: UPLOAD_BODY_LIMIT,
    beyondBodyLimit: `send chunks of at most ${CHUNK_BYTES} bytes, the chunks.size GET /api/server/public advertises`,
  },
);
