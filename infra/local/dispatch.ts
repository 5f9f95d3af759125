import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '#shared/http/handler';
import { BASE_HEADERS, type HttpResult } from '#shared/http/response';
import { corsPolicy, FALLBACK_HANDLER, matchRoute } from '#shared/routes';

const handlers = new Map<string, Promise<LambdaHandler>>();

/** Imports a handler module once, as a warm Lambda keeps its module loaded. */
export function loadHandler(name: string): Promise<LambdaHandler> {
  let loaded = handlers.get(name);
  if (!loaded) {
    loaded = import(`../../functions/${name}.ts`).then(
      (module: { handler: LambdaHandler }) => module.handler,
    );
    handlers.set(name, loaded);
  }
  return loaded;
}

/**
 * Does what API Gateway does with an event: answers CORS preflights, picks the route from the route
 * table (or the `$default` fallback) and invokes that route's handler module.
 */
export async function dispatch(event: APIGatewayProxyEventV2): Promise<HttpResult> {
  const method = event.requestContext.http.method.toUpperCase();
  if (method === 'OPTIONS') {
    return {
      statusCode: 204,
      headers: {
        ...BASE_HEADERS,
        'access-control-allow-methods': corsPolicy.allowMethods.join(','),
        'access-control-allow-headers': corsPolicy.allowHeaders.join(','),
        'access-control-max-age': String(corsPolicy.maxAgeSeconds),
      },
    };
  }
  const match = matchRoute(method, event.rawPath);
  if (match.kind !== 'route') return (await loadHandler(FALLBACK_HANDLER))(event);
  const routeKey = `${match.route.method} ${match.route.path}`;
  const handler = await loadHandler(match.route.handler);
  return handler({
    ...event,
    routeKey,
    requestContext: { ...event.requestContext, routeKey },
    ...(Object.keys(match.pathParameters).length ? { pathParameters: match.pathParameters } : {}),
  });
}
