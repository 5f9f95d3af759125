import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { invalid } from '#shared/errors';
import { requireFile, toFileResource } from '#shared/files/model';
import { type FileChanges, updateFile } from '#shared/files/record/changes';
import { UnknownTag } from '#shared/files/record/memberships';
import { NameTaken } from '#shared/files/record/name-claims';
import { findOwnFile } from '#shared/files/record/store';
import { withCountedViews } from '#shared/files/serve/popular-views';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { tagLookup } from '#shared/tags/store';
import { patchFileSchema, readFilePassword } from '#shared/validation/files/schemas';
import { FILE_ID_OR_NAME, pathId } from '#shared/validation/ids';

/**
 * By id or public name, as `GET`. A `name` another file has is a 400, as Zipline's (and an upload's);
 * `tags` that are not all the caller's tags a 400 (Zipline's "invalid tag somewhere"), nothing changed.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const { password, ...fields } = readJson(request, patchFileSchema);
  const file = requireFile(await findOwnFile(user.id, pathId(request, 'id', FILE_ID_OR_NAME)));
  const changes: FileChanges = { ...fields };
  if (password !== undefined) {
    changes.passwordHash = await hashOptionalPassword(readFilePassword(password, 'password'));
  }
  try {
    const updated = Object.keys(changes).length === 0 ? file : await updateFile(user.id, file.id, changes);
    const [counted] = await withCountedViews([updated]);
    return json(200, toFileResource(counted ?? updated, await tagLookup(user.id, [updated])));
  } catch (error) {
    if (error instanceof NameTaken) throw invalid(error.message);
    if (error instanceof UnknownTag) throw invalid('invalid tag somewhere: tags must be ids of your tags');
    throw error;
  }
});
