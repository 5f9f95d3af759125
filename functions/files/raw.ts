import { notFound } from '#shared/errors';
import { openDownload } from '#shared/files/access';
import { defineHandler } from '#shared/http/handler';
import { BASE_HEADERS } from '#shared/http/response';
import { MAX_NAME_BYTES } from '#shared/validation/files';

/**
 * The public download link of every file (no authentication: the name is the capability). Counts
 * the view and redirects to a presigned URL valid for a minute; the bytes never pass through Lambda.
 */
export const handler = defineHandler(async (request) => {
  const name = request.pathParameters.name ?? '';
  if (name === '' || Buffer.byteLength(name) > MAX_NAME_BYTES) throw notFound('file not found');
  return { statusCode: 302, headers: { ...BASE_HEADERS, location: await openDownload(name) } };
});
