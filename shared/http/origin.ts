import { publicOrigin } from '#shared/config/origins';
import { passkeyConfig, type RelyingParty, relyingPartyOf } from '#shared/config/passkeys';
import { invalid } from '#shared/errors';
import type { HttpRequest } from '#shared/http/request';

/**
 * The host the client addressed. Behind the stack's CloudFront distribution the request reaches the
 * API with the API's own Host, and the distribution's viewer-request function puts the viewer's
 * host (the dashboard's) in `x-viewer-host`, replacing whatever the viewer sent there. A request
 * that does not carry the distribution's origin secret has lost that header before any handler
 * sees it (`http/distribution.ts`): straight to the API, the host is the API's own.
 */
export function requestHost(request: HttpRequest): string | undefined {
  return request.headers['x-viewer-host'] ?? request.headers.host;
}

/** The service's own origin as the client reached it (or on `host`): file URLs point back at it. */
export function requestOrigin(request: HttpRequest, host = requestHost(request) ?? 'localhost'): string {
  return `${request.secure ? 'https' : 'http'}://${host}`;
}

/**
 * Where a sign-in provider sends the browser back: the configured dashboard origin (in AWS always
 * set), else the request's own origin (the local runner's).
 */
export function callbackOrigin(request: HttpRequest): string {
  return publicOrigin() ?? requestOrigin(request);
}

export const NO_RELYING_PARTY =
  "passkeys work only at the dashboard's address (locally http://localhost:<port>, not an IP address)";

/**
 * The relying party of a passkey ceremony: the configured dashboard origin (the stack sets it on
 * every ceremony function), or else the dashboard's host as the stack's CloudFront distribution
 * reports it (`x-viewer-host`, kept only beside the distribution's origin secret, over HTTPS). A
 * request that came another way (the API's own URL) has none: 400.
 */
export function relyingParty(request: HttpRequest): RelyingParty {
  const { fixed } = passkeyConfig();
  if (fixed) return fixed;
  const viewerHost = request.headers['x-viewer-host'];
  const party = viewerHost && request.secure ? relyingPartyOf(`https://${viewerHost}`) : undefined;
  if (!party) throw invalid(NO_RELYING_PARTY);
  return party;
}
