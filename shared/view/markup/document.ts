import { STYLE, STYLE_HASH } from '#shared/view/markup/style';

/** A server-rendered page and its Content-Security-Policy header. */
export interface RenderedPage {
  html: string;
  /** The page's Content-Security-Policy header. */
  csp: string;
}

export interface PageParts {
  /** The document's title, already escaped. */
  title: string;
  /** Elements added to the head after the stylesheet (embed tags, robots), each ending in a newline. */
  head: string;
  /** The main element's class: its alignment. */
  mainClass: string;
  /** The main element's content, already escaped. */
  main: string;
  /** CSP fetch directives for what the page loads besides its stylesheet (the file's media). */
  sources: string[];
}

/**
 * The frame the file's page and the refusal page share, so both keep the same policy: one inline
 * stylesheet allowed by its hash, no script, nothing loaded that `sources` does not name, forms
 * posted only to the page's own origin, and no other site may frame it.
 */
export function renderDocument(parts: PageParts): RenderedPage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
<style>${STYLE}</style>
${parts.head}</head>
<body>
<main class="${parts.mainClass}">
${parts.main}
</main>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    ...parts.sources,
    `style-src ${STYLE_HASH}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
