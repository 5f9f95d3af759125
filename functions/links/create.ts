import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { announceLink } from '#shared/http/announce';
import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { readJson } from '#shared/http/request';
import { json, text } from '#shared/http/response';
import { readReplyOptions } from '#shared/http/upload-reply';
import { toLinkResource } from '#shared/links/model';
import { createLink } from '#shared/links/store';
import { readLinkHeaders } from '#shared/validation/links/headers';
import { createLinkSchema } from '#shared/validation/links/schemas';

/**
 * `POST /api/user/urls` (Zipline's): `{destination, vanity?, enabled?}` with `x-zipline-max-views`,
 * `x-zipline-password`, `x-zipline-domain` and `x-zipline-no-json`; answers the link and `url`, its
 * full short link (`/go/<vanity or code>`), or with no-json that link alone as text.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const body = readJson(request, createLinkSchema);
  const headers = readLinkHeaders(request.headers);
  const reply = readReplyOptions(request.headers);
  const link = await createLink(
    user.id,
    {
      destination: body.destination,
      vanity: body.vanity || null,
      enabled: body.enabled,
      maxViews: headers.maxViews,
      passwordHash: await hashOptionalPassword(headers.password),
    },
    user.quota?.maxUrls ?? null,
  );
  const url = `${requestOrigin(request, reply.host ?? undefined)}/go/${encodeURIComponent(link.vanity ?? link.code)}`;
  await announceLink(user, link, url);
  if (reply.plainText) return text(200, url);
  // A new link has no views yet: nothing to read.
  return json(200, { ...toLinkResource(link, 0), url });
});
