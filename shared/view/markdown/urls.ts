/** Schemes a link in a rendered Markdown file may have: web pages and mail, never script or data. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * The URL a Markdown link may point to, as the page writes it, or none (the link is then shown as
 * its text). Parsed by the WHATWG URL parser, the browser's own, so what is checked is what a click
 * would open: leading control characters, tabs inside the scheme and letter case are all settled
 * before the scheme is compared. Only absolute http(s) and mailto URLs, and fragments; a relative
 * path means nothing on a file's page, and an entity (`&#106;avascript:`) never decodes, since the
 * page escapes what it writes.
 */
export function linkTarget(href: string): string | undefined {
  if (/^#[\w.~-]*$/.test(href)) return href;
  return absoluteUrl(href, LINK_SCHEMES);
}

/** The URL a Markdown image may be loaded from when its owner allows remote images: https only. */
export function imageSource(href: string): string | undefined {
  return absoluteUrl(href, new Set(['https:']));
}

function absoluteUrl(href: string, schemes: Set<string>): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  return schemes.has(url.protocol) ? url.href : undefined;
}
