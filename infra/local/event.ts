import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface RawRequest {
  method: string;
  /** Path with optional query string, as on the request line. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | undefined;
  sourceIp?: string;
  /** Scheme the client used; decides the cookie's `Secure` attribute. */
  protocol?: 'http' | 'https';
}

const TEXT_BODY = /^(application\/(json|x-www-form-urlencoded)|text\/)/i;

/**
 * Builds the payload-2.0 event API Gateway would send for this request: lowercased headers
 * (repeated ones joined with commas), cookies moved out of the header into `cookies`, repeated
 * query parameters joined with commas, binary bodies base64-encoded.
 */
export function toApiGatewayEvent(request: RawRequest): APIGatewayProxyEventV2 {
  const url = new URL(request.url, 'http://localhost');
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(lower === 'cookie' ? '; ' : ',') : value;
    if (lower === 'cookie') {
      cookies = joined
        .split(';')
        .map((part) => part.trim())
        .filter(Boolean);
    } else headers[lower] = joined;
  }
  headers['x-forwarded-proto'] = request.protocol ?? 'http';
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  const body = request.body && request.body.length > 0 ? request.body : undefined;
  const isText = body !== undefined && TEXT_BODY.test(headers['content-type'] ?? '');
  const now = Date.now();
  const method = request.method.toUpperCase();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    ...(body
      ? { body: isText ? body.toString('utf8') : body.toString('base64'), isBase64Encoded: !isText }
      : {}),
    isBase64Encoded: body !== undefined && !isText,
  } as APIGatewayProxyEventV2;
}
