import { authenticate } from '#shared/auth/authenticate';
import { completeUpload } from '#shared/files/upload/presigned';
import { announceUploads } from '#shared/http/announce';
import { defineHandler } from '#shared/http/handler';
import { readReplyOptions, uploadReply } from '#shared/http/upload-reply';
import { pathId, UPLOAD_ID } from '#shared/validation/ids';

/**
 * Records a presigned upload's file once its bytes are in the bucket; answers like `/api/upload`
 * (also to `x-zipline-no-json` and `x-zipline-domain`, which shape this answer).
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const uploadId = pathId(request, 'id', UPLOAD_ID);
  const reply = readReplyOptions(request.headers);
  const file = await completeUpload(user, uploadId);
  await announceUploads(request, reply, user, [file]);
  return uploadReply(request, reply, [file]);
});
