import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { renamePasskey } from '#shared/passkeys/credentials';
import { toUserResource } from '#shared/users/model';
import { PASSKEY_ID, pathId } from '#shared/validation/ids';
import { passkeyRenameSchema } from '#shared/validation/sign-in/passkeys';

/** Renames one of the caller's passkeys: 200 `{user}`; anyone else's: 404. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  const id = pathId(request, 'id', PASSKEY_ID);
  const { name } = readJson(request, passkeyRenameSchema);
  return json(200, { user: toUserResource(await renamePasskey(caller.user, id, name)) });
});
