import { authenticate, requireSession } from '#shared/auth/authenticate';
import { confirmPasswordChange } from '#shared/auth/current-password';
import { hashPassword } from '#shared/auth/password';
import { issueToken } from '#shared/auth/token';
import { config } from '#shared/config';
import { invalid } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { countAttempt } from '#shared/throttle/counter';
import { decodeAvatar } from '#shared/users/avatar';
import { updateUser } from '#shared/users/changes';
import { toUserResource } from '#shared/users/model';
import { AVATAR_BODY_LIMIT, patchCurrentUserSchema } from '#shared/validation/user';

export const handler = defineHandler(
  async (request) => {
    const caller = await authenticate(request);
    const patch = readJson(request, patchCurrentUserSchema);
    // Everything is validated before anything is written.
    const avatar =
      patch.avatar === undefined || patch.avatar === null ? patch.avatar : decodeAvatar(patch.avatar);
    if ((patch.currentPassword !== undefined || patch.code !== undefined) && patch.password === undefined) {
      throw invalid('currentPassword and code are only used together with password');
    }
    // The password and the name a password login types are how the account signs in.
    const renames = patch.username !== undefined && patch.username !== caller.user.username;
    if (patch.password !== undefined || renames) requireSession(caller);
    if (patch.password !== undefined) await confirmPasswordChange(caller, patch);
    // Each rename (taken or not) tells whether a name exists: limited per user, before any write.
    if (renames) {
      await countAttempt({
        scope: 'rename-user',
        subject: caller.user.id,
        max: config().throttle.renamesPerUser,
      });
    }
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
  { bodyLimit: AVATAR_BODY_LIMIT },
);
