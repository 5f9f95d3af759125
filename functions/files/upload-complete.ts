import { authenticate } from '#shared/auth/authenticate';
import { toUploadResult } from '#shared/files/model';
import { completeUpload } from '#shared/files/presigned';
import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { json } from '#shared/http/response';
import { pathId, UPLOAD_ID } from '#shared/validation/ids';

/** Records a presigned upload's file once its bytes are in the bucket; answers like `/api/upload`. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const uploadId = pathId(request, 'id', UPLOAD_ID);
  return json(200, toUploadResult([await completeUpload(user, uploadId)], requestOrigin(request)));
});
