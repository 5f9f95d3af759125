import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResult } from '#shared/http/response';
import { dispatch } from '../../infra/local/dispatch.ts';
import { type RawRequest, toApiGatewayEvent } from '../../infra/local/event.ts';

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  text: string;
  /** The body's bytes (a download served by the function). */
  bytes: Buffer;
  /** Parsed JSON body (undefined when there is none); loosely typed so assertions stay short. */
  // biome-ignore lint/suspicious/noExplicitAny: test responses are asserted field by field
  body: any;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  /** Sent as is. */
  raw?: string | Buffer;
  cookie?: string;
  token?: string;
  sourceIp?: string;
  protocol?: 'http' | 'https';
}

/** The payload-2.0 event API Gateway builds for this request, before routing. */
export function requestEvent(method: string, url: string, options: CallOptions = {}): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = { ...options.headers };
  let body: Buffer | undefined;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = Buffer.from(JSON.stringify(options.json));
  } else if (options.raw !== undefined) {
    body = Buffer.isBuffer(options.raw) ? options.raw : Buffer.from(options.raw);
  }
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.token !== undefined) headers.authorization = options.token;
  const request: RawRequest = {
    method,
    url,
    headers,
    body,
    sourceIp: options.sourceIp ?? '203.0.113.7',
    protocol: options.protocol ?? 'https',
  };
  return toApiGatewayEvent(request);
}

/**
 * Sends a request the way users' requests travel: turned into the payload-2.0 event API Gateway
 * builds, routed by the route table, answered by the route's handler module.
 */
export async function call(method: string, url: string, options: CallOptions = {}): Promise<TestResponse> {
  return toTestResponse(await dispatch(requestEvent(method, url, options)));
}

/** Decodes a handler's result the way a client reads the HTTP response. */
export function toTestResponse(result: HttpResult): TestResponse {
  const bytes =
    result.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  const text = bytes.toString();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return {
    status: result.statusCode,
    headers: result.headers,
    cookies: result.cookies ?? [],
    text,
    bytes,
    body: parsed,
  };
}

/** The `name=value` part of a Set-Cookie string, ready to send back in a Cookie header. */
export function cookieValue(setCookie: string | undefined): string {
  if (!setCookie) throw new Error('no Set-Cookie in the response');
  return setCookie.split(';')[0] as string;
}

let counter = 0;
export const uniqueName = (prefix = 'user') =>
  `${prefix}-${process.pid}-${++counter}-${Date.now().toString(36)}`;
