import { authenticate } from '#shared/auth/authenticate';
import { confirmCurrentPassword } from '#shared/auth/current-password';
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
    if (patch.currentPassword !== undefined && patch.password === undefined) {
      throw invalid('currentPassword is only used together with password');
    }
    // A token sits in uploader configs and scripts: on its own it must not be able to take the
    // account over, so a password change made with it proves the current password too.
    if (patch.password !== undefined && caller.via === 'token' && patch.currentPassword === undefined) {
      throw invalid('currentPassword is required to change the password with an API token');
    }
    if (patch.currentPassword !== undefined) await confirmCurrentPassword(caller.user, patch.currentPassword);
    // Each rename (taken or not) tells whether a name exists: limited per user, before any write.
    if (patch.username !== undefined && patch.username !== caller.user.username) {
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
