import { authenticate, requireSession } from '#shared/auth/authenticate';
import { hashPassword } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { createUserAs, requireMayCreate, requireUserAdministrator } from '#shared/users/admin';
import { decodeAvatar } from '#shared/users/avatar/avatar';
import { toUserResource } from '#shared/users/model';
import { AVATAR_BODY_LIMIT } from '#shared/validation/users/account';
import { createUserSchema } from '#shared/validation/users/admin';

export const handler = defineHandler(
  async (request) => {
    const caller = await authenticate(request, { consistent: true });
    const actor = caller.user;
    requireUserAdministrator(actor);
    const input = readJson(request, createUserSchema);
    // An administrator made with a token would sign in and reset the passwords of the users it
    // manages: granting that needs a session too (a USER changes nobody's sign-in).
    if (input.role !== 'USER') requireSession(caller);
    const avatar = input.avatar === undefined || input.avatar === null ? null : decodeAvatar(input.avatar);
    // Judged before the password is hashed: refused requests cost no bcrypt work.
    requireMayCreate(actor, input.role);
    const user = await createUserAs(actor, {
      username: input.username,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      quota: input.quota,
      avatar,
    });
    return json(200, toUserResource(user));
  },
  { bodyLimit: AVATAR_BODY_LIMIT },
);
