import { verifyPassword } from '#shared/auth/password';
import { openDownload } from '#shared/files/serve/access';
import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { served } from '#shared/http/response';
import { rawQuerySchema } from '#shared/validation/files/schemas';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';

/**
 * The public download link of every file (no authentication: the name is the capability). Counts
 * the view and answers the bytes (up to 4 MiB, so the address stays this link) or redirects to a
 * presigned URL valid for a minute (larger files).
 * `?download=true` (download buttons) makes it an attachment; HEAD counts nothing. A protected file
 * needs `?pw=<password>`; without it, or with a wrong one, the answer is the 404 of an unknown name.
 * Guesses are counted per client address and per name (`unlockWithPassword`).
 */
export const handler = defineHandler(async (request) => {
  const name = pathId(request, 'name', PUBLIC_NAME);
  const query = validate(rawQuerySchema, request.query);
  return served(
    await openDownload(name, {
      attachment: query.download,
      head: request.method === 'HEAD',
      ...(query.pw === undefined
        ? {}
        : { password: { value: query.pw, sourceIp: request.sourceIp, check: verifyPassword } }),
      ...(query.embed === undefined ? {} : { embed: query.embed }),
    }),
  );
});
