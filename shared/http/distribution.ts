import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { originSecret } from '#shared/config/origins';

/** Added by the stack's distribution to every request it passes to the API (infra/dashboard.ts). */
export const ORIGIN_SECRET_HEADER = 'x-origin-secret';
/**
 * Set by the distribution's viewer-request function (infra/cloudfront/viewer-host.js) over whatever
 * the viewer sent: the host the viewer addressed, and the viewer's address.
 */
export const VIEWER_HOST_HEADER = 'x-viewer-host';
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the headers carry the distribution's origin secret (compared in constant time). */
export function fromDistribution(headers: Record<string, string>): boolean {
  const expected = originSecret();
  const presented = headers[ORIGIN_SECRET_HEADER];
  if (expected === undefined || presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * What a request may say about its viewer, decided once where it enters (`toHttpRequest`): a
 * request from the distribution keeps the viewer headers, and its client is the viewer's address
 * (API Gateway's source address is then CloudFront's edge, shared by everyone behind it). Any
 * other request (the API's own URL, called directly) loses them: whoever sent them chose them.
 * The origin secret itself never reaches a handler (or a log line).
 */
export function viewerOf(headers: Record<string, string>, sourceIp: string): string {
  const verified = fromDistribution(headers);
  delete headers[ORIGIN_SECRET_HEADER];
  const viewerAddress = headers[VIEWER_ADDRESS_HEADER];
  if (!verified) {
    delete headers[VIEWER_HOST_HEADER];
    delete headers[VIEWER_ADDRESS_HEADER];
    return sourceIp;
  }
  return viewerAddress !== undefined && isIP(viewerAddress) !== 0 ? viewerAddress : sourceIp;
}
