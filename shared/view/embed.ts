import { embedImageOf, embedToken, hasStableEmbed, showsEmbedImage } from '#shared/files/embed-image';
import type { FileRecord } from '#shared/files/model';
import type { ViewPage } from '#shared/view/file/open';
import { findViewable, shownName, type ViewOwner } from '#shared/view/file/shown-file';
import { escapeHtml } from '#shared/view/markup/html';
import { fillTemplate, type TemplateSubject } from '#shared/view/markup/template';

/** The texts an embed shows, the owner's templates filled; absent where the owner set none. */
export interface EmbedTexts {
  title: string;
  description?: string;
  siteName?: string;
  color?: string;
}

const setting = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The embed's texts: the owner's templates filled, the title defaulting to the shown name. */
export function embedTexts(file: FileRecord, owner: ViewOwner): EmbedTexts {
  const view = owner.view;
  const subject: TemplateSubject = { file, username: owner.username };
  const fill = (template: unknown) => {
    const text = setting(template);
    return text === undefined ? undefined : fillTemplate(text, subject);
  };
  const description = fill(view.embedDescription);
  const siteName = fill(view.embedSiteName);
  const color = setting(view.embedColor);
  return {
    title: fill(view.embedTitle) ?? shownName(file),
    ...(description === undefined ? {} : { description }),
    ...(siteName === undefined ? {} : { siteName }),
    ...(color === undefined ? {} : { color }),
  };
}

/** How much of a text file its embed shows: the first lines, as chat apps show a few. */
const DESCRIPTION_LINES = 5;
const DESCRIPTION_CHARACTERS = 300;

/** The first lines of a text (blank ones at the start skipped), cut at a character limit with `…`. */
export function firstLines(text: string): string {
  const lines = text.replace(/^\s*\n/, '').split('\n', DESCRIPTION_LINES + 1);
  let shown = lines.slice(0, DESCRIPTION_LINES).join('\n').trimEnd();
  const more = lines.length > DESCRIPTION_LINES || shown.length > DESCRIPTION_CHARACTERS;
  shown = [...shown].slice(0, DESCRIPTION_CHARACTERS).join('');
  return more ? `${shown}…` : shown;
}

/**
 * A text file's embed describes it by its first lines, where the owner set no description of their
 * own (the owner's template wins). Only the page has them (it read the excerpt); oEmbed reads no
 * bytes and stays as it is.
 */
export function withTextDescription(texts: EmbedTexts, page: ViewPage): EmbedTexts {
  if (texts.description !== undefined || page.presentation !== 'text' || !page.excerpt) return texts;
  const description = firstLines(page.excerpt.text);
  return description === '' ? texts : { ...texts, description };
}

/**
 * The embed of the file published under `name`, for the oEmbed route: 404 unless its owner has view
 * pages and embeds on and a download would be served now. Counts no view.
 */
export async function openEmbed(name: string): Promise<EmbedTexts> {
  const { file, owner } = await findViewable(name, { count: false, embed: true });
  return embedTexts(file, owner);
}

const meta = (key: 'property' | 'name', name: string, content: string) =>
  `<meta ${key}="${name}" content="${escapeHtml(content)}">\n`;

/**
 * The `<head>` tags link unfurlers read (Open Graph, Twitter cards, theme colour, oEmbed discovery),
 * for a page whose owner has `embed` on. An image's tags show `embedImageOf`'s choice through the
 * file's stable `/raw/<name>?embed=` link (or, for a file with a view limit or a password, the page's
 * presigned URL); video and audio the page's presigned URLs, a video with its thumbnail as `og:image`. None counts a second view.
 */
export function embedTags(page: ViewPage, texts: EmbedTexts, urls: { page: string; oembed: string }): string {
  const { file } = page;
  let tags =
    meta('property', 'og:type', page.presentation === 'video' ? 'video.other' : 'website') +
    meta('property', 'og:title', texts.title) +
    meta('property', 'og:url', urls.page);
  if (texts.description !== undefined) tags += meta('property', 'og:description', texts.description);
  if (texts.siteName !== undefined) tags += meta('property', 'og:site_name', texts.siteName);
  if (texts.color !== undefined) tags += meta('name', 'theme-color', texts.color);
  const shown = showsEmbedImage(page.presentation) ? embedImageOf(file) : undefined;
  const preview = shown === 'preview' ? file.thumbnail : undefined;
  // The stable link where the file allows one (it serves what embedImageOf says); else the page's
  // presigned URL of the same image.
  const image =
    shown && hasStableEmbed(file)
      ? new URL(`/raw/${encodeURIComponent(file.name)}?embed=${embedToken(file)}`, urls.page).href
      : shown && (preview ? page.thumbnailUrl : page.mediaUrl);
  if (image) {
    tags +=
      meta('property', 'og:image', image) +
      meta('property', 'og:image:type', preview ? 'image/webp' : file.type) +
      (preview
        ? meta('property', 'og:image:width', String(preview.width)) +
          meta('property', 'og:image:height', String(preview.height))
        : '') +
      meta('property', 'og:image:alt', texts.title) +
      // The large card for the original at its size; the small one for a 320 px preview.
      meta('name', 'twitter:card', preview ? 'summary' : 'summary_large_image') +
      meta('name', 'twitter:image', image);
  }
  // A video's thumbnail (above) is its poster; the video itself follows.
  if (page.presentation === 'video' || page.presentation === 'audio') {
    const kind = page.presentation === 'video' ? 'og:video' : 'og:audio';
    tags +=
      meta('property', kind, page.mediaUrl) +
      meta('property', `${kind}:secure_url`, page.mediaUrl) +
      meta('property', `${kind}:type`, file.type);
  }
  if (!image) tags += meta('name', 'twitter:card', 'summary');
  tags += meta('name', 'twitter:title', texts.title);
  if (texts.description !== undefined) tags += meta('name', 'twitter:description', texts.description);
  tags += `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(urls.oembed)}" title="${escapeHtml(texts.title)}">\n`;
  return tags;
}
