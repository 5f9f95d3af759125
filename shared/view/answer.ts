import { ServiceError } from '#shared/errors';
import { requestOrigin } from '#shared/http/origin';
import type { HttpRequest } from '#shared/http/request';
import { type HttpResult, html } from '#shared/http/response';
import { renderRefusalPage } from '#shared/view/markup/refusal';
import type { PageUrls } from '#shared/view/render';

/** The absolute URLs of a file's view page and its oEmbed answer, on the host the request reached. */
export function viewPageUrls(request: HttpRequest, name: string): PageUrls {
  const origin = requestOrigin(request);
  return {
    page: `${origin}/view/${encodeURIComponent(name)}`,
    oembed: `${origin}/api/oembed/${encodeURIComponent(name)}`,
  };
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
