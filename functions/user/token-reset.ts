import { authenticate } from '#shared/auth/authenticate';
import { issueToken } from '#shared/auth/token';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { resetTokenNonce } from '#shared/users/store';

/** Replaces the token: the old one is refused from this moment. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, { token: await issueToken(user.id, await resetTokenNonce(user.id)) });
});
