import { highlightLines } from '#shared/view/code/highlight';
import { languageOf } from '#shared/view/code/languages';
import type { ViewPage } from '#shared/view/file/open';
import { renderMarkdown } from '#shared/view/markdown/render';
import { humanSize } from '#shared/view/markup/format';
import { escapeHtml } from '#shared/view/markup/html';

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/** Markdown is rendered: by its type, or by its name where the uploader sent plain text. */
export function isMarkdown(fileName: string, type: string): boolean {
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return MARKDOWN_TYPES.has(essence) || /\.(md|markdown)$/i.test(fileName);
}

/** Whether the owner's Markdown pages load images from other sites (view setting, default off). */
export const allowsRemoteImages = (page: ViewPage) => page.owner.view.remoteImages === true;

/**
 * A text file's body on its page: Markdown rendered, anything else as code with line numbers,
 * highlighted where its name or type says a language the page carries. Both with "Raw" (the bytes
 * shown in the browser) and "Download" links, and where the file is longer than the excerpt the page
 * read, a line saying so with a link to the whole file.
 */
export function textBody(page: ViewPage, shownName: string): string {
  const excerpt = page.excerpt ?? { text: '', truncated: false };
  const raw = escapeHtml(page.mediaUrl);
  const links = `<a href="${raw}">Raw</a> <a href="${escapeHtml(page.downloadUrl)}" download>Download</a>`;
  const more = excerpt.truncated
    ? `<p>Showing the start of the file. <a href="${raw}">Open the whole file</a> (${humanSize(page.file.size)}).</p>\n`
    : '';
  if (isMarkdown(shownName, page.file.type)) {
    const html = renderMarkdown(excerpt.text, { remoteImages: allowsRemoteImages(page) });
    return `<p class="bar"><span>Markdown</span> ${links}</p>\n<article class="markdown">\n${html}</article>\n${more}`;
  }
  const language = languageOf(shownName, page.file.type);
  const lines = highlightLines(excerpt.text, language?.id);
  return `<div class="code">
<p class="bar"><span>${language ? escapeHtml(language.label) : 'Plain text'}</span> <label><input class="wrap" type="checkbox">Wrap lines</label> ${links}</p>
<pre${language ? ` class="language-${language.id}"` : ''}><code>${lines}</code></pre>
</div>
${more}`;
}
