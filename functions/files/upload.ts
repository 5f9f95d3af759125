import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { recordedType } from '#shared/files/content-type';
import { receiveChunk } from '#shared/files/upload/chunked/receive';
import { storeFiles } from '#shared/files/upload/direct';
import { defineHandler } from '#shared/http/handler';
import { readFileParts } from '#shared/http/multipart';
import { validate } from '#shared/http/request';
import { chunkReply, readReplyOptions, uploadReply } from '#shared/http/upload-reply';
import { readChunkHeaders } from '#shared/validation/chunk-headers';
import { uploadedNameSchema } from '#shared/validation/files';
import { readUploadOptions } from '#shared/validation/upload-headers';

/**
 * Lambda takes at most 6 MB of request payload, and API Gateway base64-encodes a binary body (4/3),
 * so 4 MiB of multipart body (5.6 MB encoded, plus headers) is what surely arrives; beyond it: 413,
 * and larger files go through a presigned upload (`POST /api/user/files/uploads`) or in chunks
 * (`content-range` + `x-zipline-p-*`, each chunk one request within this limit).
 */
const UPLOAD_BODY_LIMIT = 4 * 1024 * 1024;
/** One transaction records a whole upload: 2 items per file plus the counters, within 100. */
const MAX_FILES_PER_UPLOAD = 32;

export const handler = defineHandler(
  async (request) => {
    const { user } = await authenticate(request);
    const chunk = readChunkHeaders(request.headers);
    const { password, ...options } = readUploadOptions(request.headers, 'upload');
    const reply = readReplyOptions(request.headers);
    const parts = await readFileParts(request, { files: chunk ? 1 : MAX_FILES_PER_UPLOAD });
    if (chunk) {
      // The password is hashed once, when the first chunk opens the upload.
      const passwordHash = chunk.start === 0 ? await hashOptionalPassword(password) : null;
      const bytes = (parts[0] as (typeof parts)[number]).bytes;
      const received = await receiveChunk(user, { ...chunk, bytes }, { ...options, passwordHash });
      return chunkReply(request, reply, received.identifier, received.file);
    }
    const incoming = parts.map((part) => {
      const originalName = validate(uploadedNameSchema, part.fileName);
      return { originalName, type: recordedType(part.mimeType, originalName), bytes: part.bytes };
    });
    const passwordHash = await hashOptionalPassword(password);
    return uploadReply(request, reply, await storeFiles(user, incoming, { ...options, passwordHash }));
  },
  {
    bodyLimit: UPLOAD_BODY_LIMIT,
    beyondBodyLimit:
      'send a larger file in chunks (content-range with x-zipline-p-* headers, as Zipline clients do) or through a presigned upload (POST /api/user/files/uploads, then PUT and complete); ShareX sends one request, so it can send at most this much',
  },
);
