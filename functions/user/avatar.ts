import { authenticate } from '#shared/auth/authenticate';
import { notFound } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { text } from '#shared/http/response';
import { avatarDataUrl } from '#shared/users/avatar/avatar';
import { getAvatar } from '#shared/users/avatar/avatar-store';

/** The data URL as `text/plain`, as Zipline answers it: clients read it with `res.text()` into an `<img>`. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const avatar = await getAvatar(user.id);
  if (!avatar) throw notFound('no avatar is set');
  return text(200, avatarDataUrl(avatar));
});
