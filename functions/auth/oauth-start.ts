import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { redirect } from '#shared/http/response';
import { startSignIn } from '#shared/oauth/start';
import { oauthStartQuerySchema } from '#shared/validation/oauth';

/** Sends the browser to the provider's sign-in page (`?link=true`: to link it to the signed-in account). */
export const handler = defineHandler(async (request) => {
  const query = validate(oauthStartQuerySchema, request.query);
  const started = await startSignIn(request, request.pathParameters.provider ?? '', query.link === 'true');
  return redirect(started.location, started.cookies);
});
