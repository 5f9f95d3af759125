import { verifyPassword } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readForm } from '#shared/http/request';
import { viewPasswordFormSchema } from '#shared/validation/files/schemas';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';
import { viewPageAnswer, withRefusalPage } from '#shared/view/answer';
import { openViewPage } from '#shared/view/file/open';

/**
 * The view page's password form (`POST /view/{name}`, `password=...`): the right password shows the
 * page and counts its view; a wrong one, or any name that would not be shown, gets the same refusal
 * as an unknown name. Guesses are counted per client address and per name with `/raw?pw=`'s (one
 * gate, `unlockWithPassword`).
 */
export const handler = defineHandler((request) =>
  withRefusalPage(request, { triedPassword: true }, async () => {
    const name = pathId(request, 'name', PUBLIC_NAME);
    const { password } = readForm(request, viewPasswordFormSchema);
    const page = await openViewPage(name, {
      head: false,
      password: { value: password, sourceIp: request.sourceIp, check: verifyPassword },
    });
    return viewPageAnswer(request, name, page);
  }),
);
