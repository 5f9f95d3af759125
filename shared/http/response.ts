import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Served } from '#shared/files/serve/access';

export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
};

/** Headers on every response, error or not. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface ResponseOptions {
  headers?: Record<string, string>;
  /** Full Set-Cookie strings; payload 2.0 sends each as its own header. */
  cookies?: string[];
}

export function json(statusCode: number, body: unknown, options: ResponseOptions = {}): HttpResult {
  return {
    statusCode,
    headers: { ...BASE_HEADERS, 'content-type': JSON_CONTENT_TYPE, ...options.headers },
    body: JSON.stringify(body),
    ...(options.cookies?.length ? { cookies: options.cookies } : {}),
  };
}

/** A 302 to `location` (a path of the service, or a provider's sign-in page), with cookies to set. */
export function redirect(location: string, cookies: string[] = []): HttpResult {
  return {
    statusCode: 302,
    headers: { ...BASE_HEADERS, location },
    ...(cookies.length ? { cookies } : {}),
  };
}

/** A plain-text body (the avatar's data URL, which clients read with `res.text()`). */
export function text(statusCode: number, body: string): HttpResult {
  return {
    statusCode,
    headers: { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
    body,
  };
}

/**
 * An HTML page (the view page). Its CSP is the page's own; it never names a referrer, so a page's
 * presigned links and its name do not travel to other sites.
 */
export function html(statusCode: number, body: string, contentSecurityPolicy: string): HttpResult {
  return {
    statusCode,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy,
      'referrer-policy': 'no-referrer',
    },
    body,
  };
}

export function errorResponse(
  statusCode: number,
  message: string,
  headers: Record<string, string> = {},
  fields: Record<string, string> = {},
): HttpResult {
  return json(statusCode, { ...fields, error: message, statusCode }, { headers });
}

/**
 * A download as `serveFile` decided it: the bytes (base64, as API Gateway passes binary bodies; a
 * HEAD's answer has none but says their length) or a 302 to where they are.
 */
export function served(file: Served): HttpResult {
  if (file.kind === 'redirect') return redirect(file.location);
  const headers = {
    ...BASE_HEADERS,
    'content-type': file.contentType,
    'content-disposition': file.disposition,
    'content-length': String(file.size),
  };
  if (!file.bytes) return { statusCode: 200, headers };
  return { statusCode: 200, headers, body: file.bytes.toString('base64'), isBase64Encoded: true };
}
