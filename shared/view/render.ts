import { embedTags, embedTexts, withTextDescription } from '#shared/view/embed';
import type { ViewPage } from '#shared/view/file/open';
import { shownName as shownNameOf } from '#shared/view/file/shown-file';
import { type RenderedPage, renderDocument } from '#shared/view/markup/document';
import { humanSize, readableTime } from '#shared/view/markup/format';
import { escapeHtml } from '#shared/view/markup/html';
import { fillTemplate } from '#shared/view/markup/template';
import { allowsRemoteImages, isMarkdown, textBody } from '#shared/view/text-body';

/** Absolute URLs of the page and its oEmbed answer (unfurlers need them absolute). */
export interface PageUrls {
  page: string;
  oembed: string;
}

const ALIGNMENTS = new Set(['left', 'center', 'right']);

/**
 * The view page's HTML. Every value that comes from a user (names, type, the owner's texts) goes
 * through `escapeHtml`; media come only from the presigned URLs, which the CSP names as the one
 * origin images and media may load from.
 */
export function renderViewPage(page: ViewPage, urls: PageUrls): RenderedPage {
  const { file, owner } = page;
  const view = owner.view;
  const shownName = shownNameOf(file);
  const embed =
    view.embed === true ? embedTags(page, withTextDescription(embedTexts(file, owner), page), urls) : '';
  const align = typeof view.align === 'string' && ALIGNMENTS.has(view.align) ? view.align : 'center';
  const subject = { file, username: owner.username };
  const meta = [
    humanSize(file.size),
    `uploaded <time datetime="${escapeHtml(file.createdAt)}">${escapeHtml(readableTime(file.createdAt))}</time>`,
  ];
  if (view.showMimetype === true) meta.push(escapeHtml(file.type));
  const content =
    typeof view.content === 'string' && view.content !== ''
      ? `<p class="content">${escapeHtml(fillTemplate(view.content, subject))}</p>`
      : '';
  const mediaOrigin = new URL(page.mediaUrl).origin;
  const mediaSource =
    page.presentation === 'download' || page.presentation === 'text' ? "'none'" : mediaOrigin;
  return renderDocument({
    title: escapeHtml(shownName),
    head: embed,
    mainClass: align,
    main: `<h1>${escapeHtml(shownName)}</h1>
<p class="meta">${meta.join(' · ')}</p>
${content}${body(page, shownName)}`,
    sources: [
      `img-src ${imageSources(page, shownName, mediaSource)}`,
      `media-src ${page.presentation === 'video' || page.presentation === 'audio' ? mediaSource : "'none'"}`,
    ],
  });
}

/** Images: the file's own; for Markdown whose owner allows remote images, any https one. */
function imageSources(page: ViewPage, shownName: string, mediaSource: string): string {
  if (page.presentation === 'image') return mediaSource;
  if (page.presentation === 'text' && isMarkdown(shownName, page.file.type) && allowsRemoteImages(page)) {
    return 'https:';
  }
  return "'none'";
}

function body(page: ViewPage, shownName: string): string {
  const media = escapeHtml(page.mediaUrl);
  const download = `<p><a class="button" href="${escapeHtml(page.downloadUrl)}" download>Download</a></p>`;
  switch (page.presentation) {
    case 'image':
      return `<img src="${media}" alt="${escapeHtml(shownName)}">\n${download}`;
    case 'video':
      return `<video src="${media}" controls preload="metadata"></video>\n${download}`;
    case 'audio':
      return `<audio src="${media}" controls preload="metadata"></audio>\n${download}`;
    case 'text':
      return textBody(page, shownName);
    case 'download':
      return `<p>This file is not shown in the browser.</p>\n${download}`;
  }
}
