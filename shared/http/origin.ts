import type { HttpRequest } from '#shared/http/request';

/**
 * The host the client addressed. Behind the stack's CloudFront distribution the request reaches the
 * API with the API's own Host, and the distribution's viewer-request function puts the viewer's
 * host (the dashboard's) in `x-viewer-host`, replacing whatever the viewer sent there. Straight
 * to the API, a client could send that header itself, but a browser page of another site cannot
 * (it is no CORS-allowed request header, so the preflight fails), which is what the CSRF check needs.
 */
export function requestHost(request: HttpRequest): string | undefined {
  return request.headers['x-viewer-host'] ?? request.headers.host;
}

/** The service's own origin as the client reached it (or on `host`): file URLs point back at it. */
export function requestOrigin(request: HttpRequest, host = requestHost(request) ?? 'localhost'): string {
  return `${request.secure ? 'https' : 'http'}://${host}`;
}
