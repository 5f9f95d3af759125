import { authenticate } from '#shared/auth/authenticate';
import { hashPassword } from '#shared/auth/password';
import { issueToken } from '#shared/auth/token';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { decodeAvatar } from '#shared/users/avatar';
import { toUserResource } from '#shared/users/model';
import { updateUser } from '#shared/users/store';
import { patchCurrentUserSchema } from '#shared/validation/user';

/** Room for a 1 MiB avatar in base64 plus the other properties. */
const BODY_LIMIT = 1_500_000 + 64 * 1024;

export const handler = defineHandler(
  async (request) => {
    const caller = await authenticate(request);
    const patch = readJson(request, patchCurrentUserSchema);
    // Everything is validated before anything is written.
    const avatar =
      patch.avatar === undefined || patch.avatar === null ? patch.avatar : decodeAvatar(patch.avatar);
    const user = await updateUser(caller.user, {
      username: patch.username,
      view: patch.view,
      avatar,
      ...(patch.password === undefined
        ? {}
        : { passwordHash: await hashPassword(patch.password), keepSessionId: caller.sessionId }),
    });
    return json(200, { user: toUserResource(user), token: await issueToken(user.id, user.tokenNonce) });
  },
  { bodyLimit: BODY_LIMIT },
);
