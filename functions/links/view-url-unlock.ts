import { verifyPassword } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readForm } from '#shared/http/request';
import { checkLinkPassword, enterLink } from '#shared/links/redirect';
import { viewPasswordFormSchema } from '#shared/validation/files/schemas';
import { LINK_ID } from '#shared/validation/ids';
import { linkNotFound, passwordPage, visitAnswer, withLinkThrottle } from '#shared/view/link-page';

/**
 * The password form of `/view/url/{id}` (`password=...`): right, a 302 to the destination with its
 * view counted; wrong, the form again (403); unknown, disabled or out of views, the 404; too many
 * guesses at this link or from this address, 429 with Retry-After.
 */
export const handler = defineHandler((request) =>
  withLinkThrottle(request, async () => {
    const id = request.pathParameters.id;
    if (id === undefined || !LINK_ID.accepts(id)) return linkNotFound(request);
    const { password } = readForm(request, viewPasswordFormSchema);
    const route = await checkLinkPassword(id, {
      value: password,
      sourceIp: request.sourceIp,
      check: verifyPassword,
    });
    if (!route) return passwordPage(true);
    return visitAnswer(request, await enterLink(route));
  }),
);
