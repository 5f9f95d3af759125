import { authenticate } from '#shared/auth/authenticate';
import { notFound } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { avatarDataUrl } from '#shared/users/avatar';
import { getAvatar } from '#shared/users/store';

export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const avatar = await getAvatar(user.id);
  if (!avatar) throw notFound('no avatar is set');
  return json(200, avatarDataUrl(avatar));
});
