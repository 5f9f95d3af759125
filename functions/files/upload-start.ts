import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { assertUploadFolder } from '#shared/files/record/folder-membership';
import { startUpload } from '#shared/files/upload/presigned';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { currentSettings } from '#shared/settings/current';
import { startUploadSchema } from '#shared/validation/files/schemas';
import { readUploadOptions } from '#shared/validation/files/upload-headers';

/**
 * Starts a presigned upload for a file too large for `/api/upload`; the same `x-zipline-*` file
 * options (the answer-shaping ones belong to the completion, whose answer lists the file).
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const { password, ...options } = readUploadOptions(
    request.headers,
    'presignedStart',
    await currentSettings(),
  );
  await assertUploadFolder(user.id, options.folderId);
  const file = readJson(request, startUploadSchema);
  const passwordHash = await hashOptionalPassword(password);
  const upload = await startUpload(user, file, { ...options, passwordHash });
  return json(200, {
    id: upload.id,
    url: upload.url,
    method: 'PUT',
    headers: upload.headers,
    expiresAt: upload.expiresAt,
  });
});
