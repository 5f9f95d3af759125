import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '#shared/http/handler';
import { BASE_HEADERS, type HttpResult } from '#shared/http/response';
import { corsPolicy, FALLBACK_HANDLER, matchRoute } from '#shared/routes';

const handlers = new Map<string, Promise<LambdaHandler>>();
let previousImport: Promise<unknown> = Promise.resolve();

/**
 * Imports a handler module once, as a warm Lambda keeps its module loaded. First imports run one
 * at a time: jest's ESM loader fails on concurrent first imports of shared modules.
 */
export function loadHandler(name: string): Promise<LambdaHandler> {
  let loaded = handlers.get(name);
  if (!loaded) {
    loaded = previousImport
      .catch(() => undefined)
      .then(() => import(`../../functions/${name}.ts`))
      .then((module: { handler: LambdaHandler }) => module.handler);
    previousImport = loaded;
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
  const routed = routeEvent(event);
  return (await loadHandler(routed.handler))(routed.event);
}

/**
 * API Gateway's routing: the route table's match (or the `$default` fallback) names the handler
 * module, and the event it receives carries the route key and path parameters.
 */
export function routeEvent(event: APIGatewayProxyEventV2): {
  handler: string;
  event: APIGatewayProxyEventV2;
} {
  const match = matchRoute(event.requestContext.http.method.toUpperCase(), event.rawPath);
  if (match.kind !== 'route') return { handler: FALLBACK_HANDLER, event };
  const routeKey = `${match.route.method} ${match.route.path}`;
  return {
    handler: match.route.handler,
    event: {
      ...event,
      routeKey,
      requestContext: { ...event.requestContext, routeKey },
      ...(Object.keys(match.pathParameters).length ? { pathParameters: match.pathParameters } : {}),
    },
  };
}
