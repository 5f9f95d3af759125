import { openDownload } from '#shared/files/access';
import { defineHandler } from '#shared/http/handler';
import { BASE_HEADERS } from '#shared/http/response';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';

/**
 * The public download link of every file (no authentication: the name is the capability). Counts
 * the view and redirects to a presigned URL valid for a minute; the bytes never pass through Lambda.
 */
export const handler = defineHandler(async (request) => {
  const name = pathId(request, 'name', PUBLIC_NAME);
  return { statusCode: 302, headers: { ...BASE_HEADERS, location: await openDownload(name) } };
});
