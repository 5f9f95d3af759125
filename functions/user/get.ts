import { authenticate } from '#shared/auth/authenticate';
import { issueToken } from '#shared/auth/token';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { toUserResource } from '#shared/users/model';

/** One GetItem: the caller's user item carries everything the response needs. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, { user: toUserResource(user), token: await issueToken(user.id, user.tokenNonce) });
});
