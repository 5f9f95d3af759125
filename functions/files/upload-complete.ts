import { authenticate } from '#shared/auth/authenticate';
import { notFound } from '#shared/errors';
import { toFileResource } from '#shared/files/model';
import { completeUpload } from '#shared/files/uploads';
import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { json } from '#shared/http/response';

/** Records a presigned upload's file once its bytes are in the bucket; answers like `/api/upload`. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const uploadId = request.pathParameters.id ?? '';
  if (!/^[0-9a-f]{32}$/.test(uploadId)) throw notFound('upload not found');
  const { id, name, type, url } = toFileResource(
    await completeUpload(user, uploadId),
    requestOrigin(request),
  );
  return json(200, { files: [{ id, name, type, url }] });
});
