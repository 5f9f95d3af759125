import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { redirect } from '#shared/http/response';
import { noteUserId } from '#shared/log/logger';
import { finishSignIn } from '#shared/oauth/sign-in';
import { startSignIn } from '#shared/oauth/start';
import { isProviderAnswer, oauthSignInQuerySchema } from '#shared/validation/sign-in/oauth';

/**
 * Sends the browser to the provider's sign-in page; or, when the query carries the provider's answer
 * (`code` and `state`, or `error`), takes it as Zipline does on this very path (issue 33): signs in,
 * links or signs up, then back to the dashboard, as `/callback` does.
 */
export const handler = defineHandler(async (request) => {
  const query = validate(oauthSignInQuerySchema, request.query);
  const provider = request.pathParameters.provider ?? '';
  if (isProviderAnswer(query)) {
    const finished = await finishSignIn(request, provider, query);
    if (finished.userId) noteUserId(request, finished.userId);
    return redirect(finished.location, finished.cookies);
  }
  const started = await startSignIn(request, provider, query.link === 'true');
  return redirect(started.location, started.cookies);
});
