import { authenticate } from '#shared/auth/authenticate';
import { deleteFile } from '#shared/files/access';
import { toFileResource } from '#shared/files/model';
import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { json } from '#shared/http/response';
import { fileIdOf } from '#shared/validation/files';

/** Answers the deleted file, as existing clients expect. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const file = await deleteFile(user.id, fileIdOf(request.pathParameters.id));
  return json(200, toFileResource(file, requestOrigin(request)));
});
