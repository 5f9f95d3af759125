import { hashOptionalPassword } from '#shared/auth/password';
import { uploaderOf } from '#shared/auth/uploader';
import { recordedType } from '#shared/files/content-type';
import { UPLOAD_BODY_LIMIT } from '#shared/files/upload/chunked/limits';
import { receiveChunk } from '#shared/files/upload/chunked/receive';
import { compressImages } from '#shared/files/upload/compression';
import { storeFiles } from '#shared/files/upload/direct';
import { withoutLocation } from '#shared/files/upload/location';
import { assertUploadAllowed } from '#shared/files/upload/policy';
import { announceUploads } from '#shared/http/announce';
import { defineHandler } from '#shared/http/handler';
import { readFileParts } from '#shared/http/multipart';
import { validate } from '#shared/http/request';
import { chunkReply, readReplyOptions, uploadReply } from '#shared/http/upload-reply';
import { currentSettings } from '#shared/settings/current';
import { readChunkHeaders } from '#shared/validation/files/chunk-headers';
import { uploadedNameSchema } from '#shared/validation/files/schemas';
import { readImageCompression, readUploadOptions } from '#shared/validation/files/upload-headers';

/** One transaction records a whole upload: 2 items per file plus the counters, within 100. */
const MAX_FILES_PER_UPLOAD = 32;

export const handler = defineHandler(
  async (request) => {
    const chunk = readChunkHeaders(request.headers, 'upload');
    const settings = await currentSettings();
    const { password, ...options } = readUploadOptions(request.headers, 'upload', settings);
    const user = await uploaderOf(request, options.folderId);
    const reply = readReplyOptions(request.headers);
    const parts = await readFileParts(request, { files: chunk ? 1 : MAX_FILES_PER_UPLOAD });
    if (chunk) {
      // The password is hashed once, when the first chunk opens the upload.
      const passwordHash = chunk.start === 0 ? await hashOptionalPassword(password) : null;
      const bytes = (parts[0] as (typeof parts)[number]).bytes;
      const received = await receiveChunk(user, { ...chunk, bytes }, { ...options, passwordHash });
      await announceUploads(request, reply, user, [received.file]);
      return chunkReply(request, reply, received.identifier, received.file);
    }
    const sent = parts.map((part) => {
      const originalName = validate(uploadedNameSchema, part.fileName);
      return { originalName, type: recordedType(part.mimeType, originalName), bytes: part.bytes };
    });
    await assertUploadAllowed(
      sent.map((file) => ({ ...file, size: file.bytes.length })),
      options.extension,
    );
    const compression = readImageCompression(request.headers);
    const located = settings.filesRemoveGpsMetadata && compression === null;
    const kept = located ? await Promise.all(sent.map(withoutLocation)) : sent;
    const { files: incoming, compressed } = await compressImages(kept, compression);
    const passwordHash = await hashOptionalPassword(password);
    const files = await storeFiles(user, incoming, { ...options, passwordHash });
    await announceUploads(request, reply, user, files);
    return uploadReply(request, reply, files, compressed);
  },
  {
    bodyLimit: UPLOAD_BODY_LIMIT,
    beyondBodyLimit:
      'send a larger file in chunks (POST /api/upload/partial, as Zipline 4.4 clients do, or content-range with x-zipline-p-* headers here) or through a presigned upload (POST /api/user/files/uploads, then PUT and complete); ShareX sends one request, so it can send at most this much',
  },
);
