import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { noContent, text } from '#shared/http/response';
import { avatarDataUrl } from '#shared/users/avatar';
import { getAvatar } from '#shared/users/avatar-store';

/**
 * The data URL as `text/plain`, as Zipline answers it: clients read it with `res.text()` into an
 * `<img>`. No avatar is 204 with an empty body (`res.text()` is then `""`), not a 404: the dashboard
 * asks on every page, and a browser logs each 404 as an error.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const avatar = await getAvatar(user.id);
  return avatar ? text(200, avatarDataUrl(avatar)) : noContent();
});
