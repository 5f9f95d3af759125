import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { json } from '#shared/http/response';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';
import { openEmbed } from '#shared/view/embed';

/**
 * The oEmbed answer a view page's discovery link names (`/api/oembed/{name}`): the embed's texts as
 * JSON, type `link`. It counts no view and hands out no URL to the bytes, so it cannot be used to
 * get past `maxViews`.
 */
export const handler = defineHandler(async (request) => {
  const embed = await openEmbed(pathId(request, 'name', PUBLIC_NAME));
  const origin = requestOrigin(request);
  return json(200, {
    version: '1.0',
    type: 'link',
    title: embed.title,
    ...(embed.siteName === undefined ? {} : { provider_name: embed.siteName }),
    provider_url: origin,
  });
});
