import { verifyPassword } from '#shared/auth/password';
import { notFound } from '#shared/errors';
import { unlockWithPassword } from '#shared/files/serve/unlock';
import { findDownloadable } from '#shared/files/serve/view-count';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { filePasswordCheckSchema } from '#shared/validation/files/schemas';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';

/**
 * Zipline's password check (`POST /api/user/files/{id}/password {password}`), which its view page and
 * clients ask before showing a protected file: `{success: true}` for the right password of a file
 * that has one. Public, as Zipline's, so `{id}` is the public name (an id is not a public handle
 * here). A wrong password, a file without one, an unknown name: the one 404, as `/raw?pw=` answers;
 * guesses are counted per address and per name through the one gate (`unlockWithPassword`). Counts
 * no view.
 */
export const handler = defineHandler(async (request) => {
  const name = pathId(request, 'id', PUBLIC_NAME);
  const { password } = readJson(request, filePasswordCheckSchema);
  const guess = { value: password, sourceIp: request.sourceIp, check: verifyPassword };
  const file = await unlockWithPassword(name, guess, () => findDownloadable(name));
  if (!file || file.passwordHash === null) throw notFound('file not found');
  return json(200, { success: true });
});
