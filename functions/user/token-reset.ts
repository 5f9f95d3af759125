import { authenticate } from '#shared/auth/authenticate';
import { issueToken } from '#shared/auth/token';
import { config } from '#shared/config/service';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { countAttempt } from '#shared/throttle/counter';
import { resetTokenNonce } from '#shared/users/changes';
import { toUserResource } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/**
 * Replaces the token: the old one is refused from this moment. Limited per user (429 beyond).
 * Answers `{token, user}` as Zipline 4.4 does (issue 33): the User resource, which never holds the
 * token or anything secret; the new token only in `token`.
 */
export const handler = defineHandler(
  async (request) => {
    const { user } = await authenticate(request);
    await countAttempt({
      scope: 'token-reset-user',
      subject: user.id,
      max: config().throttle.tokenResetsPerUser,
    });
    const token = await issueToken(user.id, await resetTokenNonce(user.id));
    const updated = (await getUser(user.id, { consistent: true })) ?? user;
    return json(200, { token, user: toUserResource(updated) });
  },
  { metricsByStatus: { 200: 'TokenResets' } },
);
