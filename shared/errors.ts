/**
 * Typed failures that domain and storage code raise. The HTTP layer maps each kind to one status
 * (`http/handler.ts`); their messages are safe to show to the caller. Anything that is not a
 * ServiceError is a bug or an outage and becomes a generic 500/503.
 */
export type FailureKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable';

export class ServiceError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** Extra response headers, e.g. `Retry-After` or `Allow`. */
    readonly headers: Record<string, string> = {},
    /** Extra fields of the answer beside `error`, e.g. the name that collided (import, issue 40). */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const NOT_LOGGED_IN = 'not logged in';

export const invalid = (message: string) => new ServiceError('invalid', message);
export const notFound = (message = 'not found') => new ServiceError('not_found', message);
export const conflict = (message: string) => new ServiceError('conflict', message);
export const forbidden = (message = 'forbidden') => new ServiceError('forbidden', message);
export const unauthenticated = () => new ServiceError('unauthenticated', NOT_LOGGED_IN);
