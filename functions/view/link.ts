import { verifyPassword } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readForm, validate } from '#shared/http/request';
import { served } from '#shared/http/response';
import { linkQuerySchema, viewPasswordFormSchema } from '#shared/validation/files/schemas';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';
import { viewPageAnswer, withRefusalPage } from '#shared/view/answer';
import { openLink } from '#shared/view/file/link';

/**
 * A file's link as Zipline hands it out (`/u/{name}`, the `url` of every File): the view page while
 * the owner has view pages on, else the file as `/raw/{name}` serves it (`openLink`), one view
 * counted either way. `?download=true` is always the file, as an attachment. A protected file takes
 * `?pw=` or, posted to the same address, the refusal page's form (`password=`).
 */
export const handler = defineHandler((request) => {
  const post = request.method === 'POST';
  return withRefusalPage(request, { triedPassword: post || request.query.pw !== undefined }, async () => {
    const name = pathId(request, 'name', PUBLIC_NAME);
    const query = validate(linkQuerySchema, request.query);
    const password = post ? readForm(request, viewPasswordFormSchema).password : query.pw;
    const answer = await openLink(name, {
      head: request.method === 'HEAD',
      attachment: query.download,
      ...(password === undefined
        ? {}
        : { password: { value: password, sourceIp: request.sourceIp, check: verifyPassword } }),
    });
    if (answer.kind === 'file') return served(answer.served);
    return viewPageAnswer(request, name, answer.page);
  });
});
