import { type RenderedPage, renderDocument } from '#shared/view/markup/document';

/** Why a browser gets the refusal page instead of a file's page. */
export type Refusal =
  /** Unknown, expired, out of views, view pages off, protected without a password: all alike. */
  | { kind: 'not_found'; triedPassword: boolean }
  /** Too many wrong passwords for this name (`/raw?pw=` and the form count together). */
  | { kind: 'rate_limited'; retryAfterSeconds: number };

const FORM = `<form method="post">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button class="button" type="submit">Open</button>
</form>`;

/**
 * The page a browser gets where a view page is refused. One page for every reason a page is not
 * shown, so it is no oracle: it always offers the password form (a plain `<form method="post">` to
 * the same URL, no script), since a protected file must be asked for and must look unknown. Nothing
 * on it comes from the request but the fact that a password was tried.
 */
export function renderRefusalPage(refusal: Refusal): RenderedPage {
  let message: string;
  if (refusal.kind === 'rate_limited') {
    const minutes = Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60));
    message = `<p>Too many wrong passwords for this link. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.</p>`;
  } else {
    message = refusal.triedPassword
      ? `<p>That password did not open a file at this link.</p>\n${FORM}`
      : `<p>There is no file at this link, or it is protected by a password.</p>\n${FORM}`;
  }
  return renderDocument({
    title: 'File not available',
    head: '<meta name="robots" content="noindex">\n',
    mainClass: 'center',
    main: `<h1>File not available</h1>\n${message}`,
    sources: [],
  });
}
