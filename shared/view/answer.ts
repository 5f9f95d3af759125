import { ServiceError } from '#shared/errors';
import { requestOrigin } from '#shared/http/origin';
import type { HttpRequest } from '#shared/http/request';
import { type HttpResult, html } from '#shared/http/response';
import type { ViewPage } from '#shared/view/file/open';
import { renderRefusalPage } from '#shared/view/markup/refusal';
import { type PageUrls, renderViewPage } from '#shared/view/render';

/** The absolute URLs of a file's view page and its oEmbed answer, on the host the request reached. */
export function viewPageUrls(request: HttpRequest, name: string): PageUrls {
  const origin = requestOrigin(request);
  return {
    page: `${origin}/view/${encodeURIComponent(name)}`,
    oembed: `${origin}/api/oembed/${encodeURIComponent(name)}`,
  };
}

/**
 * A file's view page as answered (`/view/{name}`, its password form, `/u/{name}`): kept out of
 * search engines' indexes (`X-Robots-Tag: noindex`, issue 38) unless its owner's view settings say
 * `allowIndexing: true`; robots.txt keeps crawlers off these paths too (web/public/robots.txt).
 */
export function viewPageAnswer(request: HttpRequest, name: string, page: ViewPage): HttpResult {
  const { html: body, csp } = renderViewPage(page, viewPageUrls(request, name));
  const result = html(200, body, csp);
  if (page.owner.view.allowIndexing === true) return result;
  return { ...result, headers: { ...result.headers, 'x-robots-tag': 'noindex' } };
}

/** Browsers navigating to a page ask for HTML; API clients, link checkers and `/raw`'s users do not. */
const wantsHtml = (request: HttpRequest) => /\btext\/html\b/i.test(request.headers.accept ?? '');

/**
 * Answers a view page request, or where it is refused, a browser the refusal page with the password
 * form (404 for every reason a page is not shown, 429 with Retry-After once guesses are limited).
 * Other clients get the JSON refusals `/raw` gives. Anything else (400, 415) stays as it is.
 */
export async function withRefusalPage(
  request: HttpRequest,
  options: { triedPassword: boolean },
  answer: () => Promise<HttpResult>,
): Promise<HttpResult> {
  try {
    return await answer();
  } catch (error) {
    if (!(error instanceof ServiceError) || !wantsHtml(request)) throw error;
    if (error.kind === 'not_found') {
      const page = renderRefusalPage({ kind: 'not_found', triedPassword: options.triedPassword });
      return html(404, page.html, page.csp);
    }
    if (error.kind === 'rate_limited') {
      const retryAfter = error.headers['retry-after'] ?? '60';
      const page = renderRefusalPage({ kind: 'rate_limited', retryAfterSeconds: Number(retryAfter) });
      const result = html(429, page.html, page.csp);
      return { ...result, headers: { ...result.headers, 'retry-after': retryAfter } };
    }
    throw error;
  }
}
