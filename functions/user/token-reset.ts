import { authenticate } from '#shared/auth/authenticate';
import { issueToken } from '#shared/auth/token';
import { config } from '#shared/config';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { countAttempt } from '#shared/throttle/counter';
import { resetTokenNonce } from '#shared/users/changes';

/** Replaces the token: the old one is refused from this moment. Limited per user (429 beyond). */
export const handler = defineHandler(
  async (request) => {
    const { user } = await authenticate(request);
    await countAttempt({
      scope: 'token-reset-user',
      subject: user.id,
      max: config().throttle.tokenResetsPerUser,
    });
    return json(200, { token: await issueToken(user.id, await resetTokenNonce(user.id)) });
  },
  { metricsByStatus: { 200: 'TokenResets' } },
);
