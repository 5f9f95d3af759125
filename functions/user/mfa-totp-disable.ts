import { authenticate } from '#shared/auth/authenticate';
import { turnOffTotp } from '#shared/auth/second-factor';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { toUserResource } from '#shared/users/model';
import { codeBodySchema } from '#shared/validation/sign-in/mfa';

/** Turns TOTP off with a current code or a recovery code. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request, { consistent: true, sessionOnly: true });
  const { code } = readJson(request, codeBodySchema);
  return json(200, { user: toUserResource(await turnOffTotp(user, code)) });
});
