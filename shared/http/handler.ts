import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { isCancelledByContention } from '#shared/db/contention/cancellation';
import { TRANSIENT_AWS_ERRORS } from '#shared/db/contention/transient-errors';
import { type FailureKind, ServiceError } from '#shared/errors';
import { type HttpRequest, toHttpRequest } from '#shared/http/request';
import { errorResponse, type HttpResult } from '#shared/http/response';
import { latencyMsSince, loggableError, logger, requestUserId } from '#shared/log/logger';
import { countMetric, type MetricName, publishMetrics } from '#shared/log/metrics';

export const STATUS_BY_KIND: Record<FailureKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

export interface HandlerOptions {
  /** Largest accepted request body in bytes (decoded). */
  bodyLimit?: number;
  /** Added to the 413 of a body over `bodyLimit`: how to send more (the upload route's other ways). */
  beyondBodyLimit?: string;
  /** A metric counted when the answer has this status (login outcomes, token resets). */
  metricsByStatus?: Partial<Record<number, MetricName>>;
}

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context?: Pick<Context, 'awsRequestId'> & Partial<Pick<Context, 'getRemainingTimeInMillis'>>,
) => Promise<HttpResult>;

/** Every API function's timeout in AWS (the stack's; tests/infra/stack.test.ts holds them equal). */
export const API_FUNCTION_SECONDS = 10;

/** What a route's function knows of its invocation besides the request. */
export interface Invocation {
  /**
   * Milliseconds left before Lambda stops the function (`getRemainingTimeInMillis`); without a
   * Lambda context (the local runner), what is left of `API_FUNCTION_SECONDS` from the start.
   */
  remainingMs: () => number;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024;

/**
 * Wraps a route's function as a payload-2.0 Lambda handler: builds the request view, maps
 * ServiceErrors to their status with their message, and turns anything else into a generic
 * 500/503 that is logged with the request id but never shown to the caller. Every request ends
 * with one log line (request id, route, status, latency, caller, client address, cold start) and
 * its metrics.
 */
export function defineHandler(
  run: (request: HttpRequest, invocation: Invocation) => Promise<HttpResult>,
  options: HandlerOptions = {},
): LambdaHandler {
  const bodyLimit = {
    bytes: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    ...(options.beyondBodyLimit ? { beyond: options.beyondBodyLimit } : {}),
  };
  // Per handler module, as Lambda runs one module per function (the local runner loads them all).
  let coldStart = true;
  return async (event, context) => {
    const started = performance.now();
    const end = Date.now() + API_FUNCTION_SECONDS * 1000;
    const invocation: Invocation = {
      remainingMs: () => context?.getRemainingTimeInMillis?.() ?? end - Date.now(),
    };
    const requestId = context?.awsRequestId ?? event.requestContext?.requestId;
    let request: HttpRequest | undefined;
    let result: HttpResult;
    try {
      request = toHttpRequest(event, bodyLimit);
      result = await run(request, invocation);
    } catch (error) {
      result = failureResponse(error, requestId);
    }
    const counted = options.metricsByStatus?.[result.statusCode];
    if (counted) countMetric(counted);
    if (result.statusCode >= 500) countMetric('ServerErrors');
    logger.info('request', {
      requestId,
      route: event.routeKey,
      status: result.statusCode,
      latencyMs: latencyMsSince(started),
      userId: request && requestUserId(request),
      // The address per-address limits count (the viewer's behind the distribution): the access
      // log's `ip` is then CloudFront's edge (docs/security.md).
      clientIp: request?.sourceIp,
      coldStart,
    });
    coldStart = false;
    publishMetrics();
    return event.requestContext?.http?.method?.toUpperCase() === 'HEAD' ? withoutBody(result) : result;
  };
}

/**
 * The answer to a HEAD request: the GET's status and headers, `content-length` the size the body
 * would have had, and no body.
 */
export function withoutBody(result: HttpResult): HttpResult {
  const { body, isBase64Encoded, ...rest } = result;
  // A bodiless answer may state the length itself (a download's HEAD, which reads no bytes).
  const length =
    body === undefined
      ? (result.headers['content-length'] ?? 0)
      : Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
  return { ...rest, headers: { ...result.headers, 'content-length': String(length) } };
}

export function failureResponse(error: unknown, requestId: string | undefined): HttpResult {
  if (error instanceof ServiceError)
    return errorResponse(STATUS_BY_KIND[error.kind], error.message, error.headers, error.fields);
  const name = error instanceof Error ? error.name : typeof error;
  const transient = TRANSIENT_AWS_ERRORS.has(name) || isCancelledByContention(error);
  logger.error('unexpected error', { requestId, error: loggableError(error) });
  return transient
    ? errorResponse(503, 'service is busy, try again', { 'retry-after': '1' })
    : errorResponse(500, 'internal server error');
}
