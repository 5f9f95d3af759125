import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { redirect } from '#shared/http/response';
import { noteUserId } from '#shared/log/logger';
import { finishSignIn } from '#shared/oauth/sign-in';
import { oauthCallbackQuerySchema } from '#shared/validation/sign-in/oauth';

/** The provider's redirect back: signs in, links or signs up, then back to the dashboard. */
export const handler = defineHandler(async (request) => {
  const query = validate(oauthCallbackQuerySchema, request.query);
  const finished = await finishSignIn(request, request.pathParameters.provider ?? '', query);
  if (finished.userId) noteUserId(request, finished.userId);
  return redirect(finished.location, finished.cookies);
});
