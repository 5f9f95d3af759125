import { ZIPLINE_HEADER_NAMES } from '#shared/http/zipline-headers';

export interface CorsPolicy {
  /** `['*']`, or exactly the allowed origins. */
  allowOrigins: string[];
  /** Lets the allowed origins' pages send the session cookie (never with `*`). */
  allowCredentials: boolean;
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/**
 * CORS as API Gateway applies it (and the local runner imitates): any origin without credentials;
 * with allowed origins (`ALLOWED_ORIGINS`, `-c allowedOrigins`), exactly those, with credentials, so
 * their pages can make cookie-authenticated calls (pages of other origins then get no CORS answer).
 * Every header of the Zipline header table is allowed, the refused ones too: a browser-based
 * uploader must get past the preflight to hear the handler's answer.
 */
export function corsPolicy(allowedOrigins: readonly string[] = []): CorsPolicy {
  const credentialed = allowedOrigins.length > 0;
  return {
    allowOrigins: credentialed ? [...allowedOrigins] : ['*'],
    allowCredentials: credentialed,
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ['authorization', 'content-type', ...ZIPLINE_HEADER_NAMES],
    exposeHeaders: ['x-next-cursor', 'retry-after'],
    maxAgeSeconds: 600,
  };
}
