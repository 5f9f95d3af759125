import { passkeyConfig, type RelyingParty, relyingPartyOf } from '#shared/config';
import { invalid } from '#shared/errors';
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

export const NO_RELYING_PARTY =
  "passkeys work only at the dashboard's address (locally http://localhost:<port>, not an IP address)";

/**
 * The relying party of a passkey ceremony: the configured dashboard origin, or else the dashboard's
 * host as the stack's CloudFront distribution reports it (`x-viewer-host`, which its viewer-request
 * function sets over HTTPS). A request that came another way (the API's own URL) has none: 400.
 * A client that sends the header itself gains nothing: a passkey signs for the relying party it
 * was registered with, and a sign-in must name the same one (`passkeys/ceremonies.ts`).
 */
export function relyingParty(request: HttpRequest): RelyingParty {
  const { fixed } = passkeyConfig();
  if (fixed) return fixed;
  const viewerHost = request.headers['x-viewer-host'];
  const party = viewerHost && request.secure ? relyingPartyOf(`https://${viewerHost}`) : undefined;
  if (!party) throw invalid(NO_RELYING_PARTY);
  return party;
}
