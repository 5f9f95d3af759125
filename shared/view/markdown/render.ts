import { Marked, type Tokens } from 'marked';
import { highlightLines } from '#shared/view/code/highlight';
import { languageOf } from '#shared/view/code/languages';
import { imageSource, linkTarget } from '#shared/view/markdown/urls';
import { escapeHtml } from '#shared/view/markup/html';

/** Whether the owner lets images from other sites load on their Markdown pages (view setting). */
export interface MarkdownOptions {
  remoteImages: boolean;
}

const titleOf = (title: string | null | undefined) => (title ? ` title="${escapeHtml(title)}"` : '');

/**
 * One renderer per setting, built once. Raw HTML is never parsed: the `html` (block) and `tag`
 * (inline) tokenizers are switched off, so `<script>`, `<img onerror>`, `<svg>`, `<iframe>` and the
 * rest stay text and are escaped like any text (as markdown-it's `html: false`). Links and images
 * are written here, from URLs `linkTarget`/`imageSource` accept; any other is shown as text. Every
 * other element marked writes has fixed attributes or escaped text.
 */
function markdownRenderer(options: MarkdownOptions): Marked {
  return new Marked({
    gfm: true,
    async: false,
    tokenizer: {
      html: () => undefined,
      tag: () => undefined,
    },
    renderer: {
      html: ({ text }) => escapeHtml(text),
      link(token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const target = linkTarget(token.href);
        if (target === undefined) return inner;
        return `<a href="${escapeHtml(target)}"${titleOf(token.title)} rel="nofollow noopener noreferrer">${inner}</a>`;
      },
      image({ href, title, text }: Tokens.Image) {
        const source = imageSource(href);
        const alt = escapeHtml(text);
        if (source === undefined) return alt;
        if (options.remoteImages) {
          return `<img src="${escapeHtml(source)}" alt="${alt}"${titleOf(title)} loading="lazy">`;
        }
        // Remote images load only where the owner allows them: a link to the image instead.
        return `<a class="image-link" href="${escapeHtml(source)}" rel="nofollow noopener noreferrer">Image: ${alt || escapeHtml(source)}</a>`;
      },
      code({ text, lang }: Tokens.Code) {
        const language = lang ? languageOf(`.${lang.split(/\s/)[0]}`, '') : undefined;
        return `<pre class="block"><code>${highlightLines(text, language?.id)}</code></pre>\n`;
      },
    },
  });
}

const renderers = new Map<boolean, Marked>();

/** A Markdown file as the view page shows it: sanitised HTML (see `markdownRenderer`). */
export function renderMarkdown(source: string, options: MarkdownOptions): string {
  let renderer = renderers.get(options.remoteImages);
  if (!renderer) {
    renderer = markdownRenderer(options);
    renderers.set(options.remoteImages, renderer);
  }
  return renderer.parse(source) as string;
}
