import type { HttpRequest } from '#shared/http/request';

/** The service's own origin as the client reached it: file URLs point back at it. */
export function requestOrigin(request: HttpRequest): string {
  const host = request.headers.host ?? 'localhost';
  return `${request.secure ? 'https' : 'http'}://${host}`;
}
