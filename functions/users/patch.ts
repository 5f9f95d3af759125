import { authenticate, requireSession } from '#shared/auth/authenticate';
import { hashPassword } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { requireUserAdministrator, updateUserAs, userToActOn } from '#shared/users/admin';
import { decodeAvatar } from '#shared/users/avatar/avatar';
import { toUserResource } from '#shared/users/model';
import { pathId, USER_ID } from '#shared/validation/ids';
import { AVATAR_BODY_LIMIT } from '#shared/validation/users/account';
import { patchUserSchema } from '#shared/validation/users/admin';

export const handler = defineHandler(
  async (request) => {
    const caller = await authenticate(request, { consistent: true });
    const actor = caller.user;
    requireUserAdministrator(actor);
    const patch = readJson(request, patchUserSchema);
    const avatar =
      patch.avatar === undefined || patch.avatar === null ? patch.avatar : decodeAvatar(patch.avatar);
    // Judged before the password is hashed: refused requests cost no bcrypt work.
    const target = await userToActOn(actor, pathId(request, 'id', USER_ID), 'update', patch.role);
    // Another user's password, TOTP and username are how that user signs in; an administrator made
    // with a token (a user the token made, promoted) would sign in and reset others' passwords.
    const renames = patch.username !== undefined && patch.username !== target.username;
    const promotes = patch.role !== undefined && patch.role !== 'USER' && patch.role !== target.role;
    if (patch.password !== undefined || patch.totpSecret !== undefined || renames || promotes)
      requireSession(caller);
    const user = await updateUserAs(actor, target, {
      username: patch.username,
      role: patch.role,
      quota: patch.quota,
      avatar,
      // A locked-out user (lost phone and recovery codes) gets TOTP turned off: `totpSecret: null`.
      disableTotp: patch.totpSecret === null,
      ...(patch.password === undefined ? {} : { passwordHash: await hashPassword(patch.password) }),
    });
    return json(200, toUserResource(user));
  },
  { bodyLimit: AVATAR_BODY_LIMIT },
);
