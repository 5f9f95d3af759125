import { authenticate, requireSession } from '#shared/auth/authenticate';
import { confirmPasswordChange } from '#shared/auth/current-password';
import { hashPassword } from '#shared/auth/password';
import { issueToken } from '#shared/auth/token';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { decodeAvatar } from '#shared/users/avatar/avatar';
import { toUserResource } from '#shared/users/model';
import { signInChangesOf, updateOwnAccount } from '#shared/users/own-account';
import { AVATAR_BODY_LIMIT, patchCurrentUserSchema } from '#shared/validation/users/account';

export const handler = defineHandler(
  async (request) => {
    const caller = await authenticate(request);
    const patch = readJson(request, patchCurrentUserSchema);
    // Everything is validated before anything is written.
    const avatar =
      patch.avatar === undefined || patch.avatar === null ? patch.avatar : decodeAvatar(patch.avatar);
    const changes = signInChangesOf(caller.user, patch);
    if (changes.password || changes.renames) requireSession(caller);
    if (changes.password) await confirmPasswordChange(caller, patch);
    const user = await updateOwnAccount(
      caller.user,
      caller.sessionId,
      { username: patch.username, view: patch.view, avatar, password: patch.password },
      hashPassword,
    );
    return json(200, { user: toUserResource(user), token: await issueToken(user.id, user.tokenNonce) });
  },
  { bodyLimit: AVATAR_BODY_LIMIT },
);
