import { ServiceError } from '#shared/errors';
import type { HttpRequest } from '#shared/http/request';
import { errorResponse, type HttpResult, html, redirect } from '#shared/http/response';
import type { Visit } from '#shared/links/redirect';
import { LINK_NOT_FOUND } from '#shared/links/store';
import { renderDocument } from '#shared/view/markup/document';

/**
 * The pages of a short link's visit, in the view page's frame (one hashed stylesheet, no script,
 * forms posted to the page's own origin): the password form of a protected link, and the one
 * "not available" page for every link that is not opened.
 */

const FORM = `<form method="post">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button class="button" type="submit">Open</button>
</form>`;

function page(title: string, message: string) {
  return renderDocument({
    title,
    head: '<meta name="robots" content="noindex">\n',
    mainClass: 'center',
    main: `<h1>${title}</h1>\n${message}`,
    sources: [],
  });
}

/** The form a protected link shows (200), or again after a wrong password (403). */
export function passwordPage(wrong: boolean): HttpResult {
  const message = wrong
    ? '<p>That password did not open this link.</p>'
    : '<p>This link is protected by a password.</p>';
  const rendered = page('Password required', `${message}\n${FORM}`);
  return html(wrong ? 403 : 200, rendered.html, rendered.csp);
}

const wantsHtml = (request: HttpRequest) => /\btext\/html\b/i.test(request.headers.accept ?? '');

/** Unknown, disabled, out of views: one 404, a page for browsers and JSON for other clients. */
export function linkNotFound(request: HttpRequest): HttpResult {
  if (!wantsHtml(request)) return errorResponse(404, LINK_NOT_FOUND);
  const rendered = page('Link not available', '<p>There is no link here, or it is no longer available.</p>');
  return html(404, rendered.html, rendered.csp);
}

/** Too many wrong passwords: 429 with Retry-After (a page for browsers). */
export function linkThrottled(request: HttpRequest, error: ServiceError): HttpResult {
  const retryAfter = error.headers['retry-after'] ?? '60';
  if (!wantsHtml(request)) return errorResponse(429, error.message, { 'retry-after': retryAfter });
  const minutes = Math.max(1, Math.ceil(Number(retryAfter) / 60));
  const rendered = page(
    'Too many attempts',
    `<p>Too many wrong passwords for this link. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.</p>`,
  );
  const result = html(429, rendered.html, rendered.csp);
  return { ...result, headers: { ...result.headers, 'retry-after': retryAfter } };
}

/**
 * A visit's answer: a 302 to the destination (never cached: BASE_HEADERS' no-store, and no
 * referrer of the short link sent on), a 302 to the link's password page, or the 404.
 */
export function visitAnswer(request: HttpRequest, visit: Visit): HttpResult {
  if (visit.kind === 'redirect') {
    const result = redirect(visit.destination);
    return { ...result, headers: { ...result.headers, 'referrer-policy': 'no-referrer' } };
  }
  if (visit.kind === 'password') return redirect(`/view/url/${encodeURIComponent(visit.linkId)}`);
  return linkNotFound(request);
}

/** Runs a visit, turning a rate limit into its page. */
export async function withLinkThrottle(request: HttpRequest, run: () => Promise<HttpResult>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'rate_limited') return linkThrottled(request, error);
    throw error;
  }
}
