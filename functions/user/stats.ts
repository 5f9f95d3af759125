import { userStats } from '#shared/accounts/stats';
import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/** `GET /api/user/stats` (Zipline 4.4's): the caller's figures from their counters (docs/stats.md). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, await userStats(user.id));
});
