import { ServiceError } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { matchRoute } from '#shared/routes/match';

/** API Gateway's `$default` route: anything the route table does not serve. */
export const handler = defineHandler(async (request) => {
  const match = matchRoute(request.method, request.path);
  if (match.kind === 'method_not_allowed') {
    throw new ServiceError('method_not_allowed', 'method not allowed', { allow: match.allow.join(', ') });
  }
  throw new ServiceError('not_found', 'not found');
});
