import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { deletePasskey } from '#shared/passkeys/credentials';
import { toUserResource } from '#shared/users/model';
import { PASSKEY_ID, pathId } from '#shared/validation/ids';

/** Deletes one of the caller's passkeys, unless it is the account's last way to sign in. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  const id = pathId(request, 'id', PASSKEY_ID);
  return json(200, { user: toUserResource(await deletePasskey(caller.user, id)) });
});
