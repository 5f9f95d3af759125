import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '#shared/config/service';
import type { LambdaHandler } from '#shared/http/handler';
import { BASE_HEADERS, type HttpResult } from '#shared/http/response';
import { type CorsPolicy, corsPolicy } from '#shared/routes/cors';
import { FALLBACK_HANDLER, matchRoute } from '#shared/routes/match';

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
 * table (or the `$default` fallback), invokes that route's handler module and applies its CORS
 * configuration to the answer.
 */
export async function dispatch(event: APIGatewayProxyEventV2): Promise<HttpResult> {
  const method = event.requestContext.http.method.toUpperCase();
  const policy = corsPolicy(config().allowedOrigins);
  const origin = event.headers?.origin ?? event.headers?.Origin;
  if (method === 'OPTIONS') {
    return withCors(
      {
        statusCode: 204,
        headers: {
          ...BASE_HEADERS,
          'access-control-allow-methods': policy.allowMethods.join(','),
          'access-control-allow-headers': policy.allowHeaders.join(','),
          'access-control-max-age': String(policy.maxAgeSeconds),
        },
      },
      policy,
      origin,
    );
  }
  const routed = routeEvent(event);
  return withCors(await (await loadHandler(routed.handler))(routed.event), policy, origin);
}

/**
 * With allowed origins, API Gateway answers a CORS request (one with `Origin`) of exactly those
 * origins with credentials, in place of the handlers' `*`; a page of any other origin gets no CORS
 * headers. Without allowed origins, or without `Origin`, the handlers' headers stand.
 */
function withCors(result: HttpResult, policy: CorsPolicy, origin: string | undefined): HttpResult {
  if (!policy.allowCredentials || origin === undefined) return result;
  const headers = Object.fromEntries(
    Object.entries(result.headers).filter(([name]) => !name.startsWith('access-control-')),
  );
  const allowed = policy.allowOrigins.includes(origin.toLowerCase());
  if (allowed) {
    Object.assign(
      headers,
      Object.fromEntries(
        Object.entries(result.headers).filter(([name]) => name.startsWith('access-control-')),
      ),
      { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'origin' },
    );
  }
  return { ...result, headers };
}

/**
 * API Gateway's routing: the route table's match (or the `$default` fallback) names the handler
 * module, and the event it receives carries the route key and path parameters.
 */
export function routeEvent(event: APIGatewayProxyEventV2): {
  handler: string;
  event: APIGatewayProxyEventV2;
} {
  const method = event.requestContext.http.method.toUpperCase();
  const match = matchRoute(method, event.rawPath);
  if (match.kind !== 'route') return { handler: FALLBACK_HANDLER, event };
  const routeKey = `${method} ${match.route.path}`;
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
