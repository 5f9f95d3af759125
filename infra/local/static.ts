import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { matchRoute } from '#shared/routes/match';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The headers CloudFront adds in AWS, so the dashboard meets the same policy locally: scripts only
 * from this origin, and the S3 server (presigned uploads and previews) as the one other origin.
 */
function securityHeaders(s3Origin: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Mantine sets CSS variables and positions through style attributes and one <style> element.
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob: ${s3Origin}`,
      `media-src 'self' blob: ${s3Origin}`,
      `connect-src 'self' ${s3Origin}`,
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

export type StaticSite = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Serves the built dashboard for GET/HEAD requests that no API route claims: a file of `dist` when
 * one exists, else `index.html` (the app's own routes, such as `/files`, are client-side). `/api/...`
 * is never answered here, so unknown API paths keep the JSON 404. Returns false when not handled.
 */
export function createStaticSite(dist: string, options: { s3Origin: string }): StaticSite {
  const headers = securityHeaders(options.s3Origin);
  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://local').pathname);
    } catch {
      return false;
    }
    if (path === '/api' || path.startsWith('/api/')) return false;
    if (matchRoute(request.method === 'HEAD' ? 'GET' : request.method, path).kind !== 'not_found')
      return false;
    const file = normalize(join(dist, path));
    const isAsset = file.startsWith(dist + sep) && existsSync(file) && statSync(file).isFile();
    const served = isAsset ? file : join(dist, 'index.html');
    if (!existsSync(served)) return false;
    response.writeHead(200, {
      ...headers,
      'content-type': CONTENT_TYPES[extname(served)] ?? 'application/octet-stream',
      'content-length': String(statSync(served).size),
      // Vite names assets by content hash; index.html must always be fetched fresh.
      'cache-control':
        isAsset && path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(served).pipe(response);
    return true;
  };
}
