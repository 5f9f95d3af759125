import { readObjectStart } from '#shared/files/bucket/objects';
import { type FileRecord, linkPath } from '#shared/files/model';
import { presignFile, presignThumbnail } from '#shared/files/serve/access';
import { type Presentation, presentationOf, VIEW_MEDIA_SECONDS } from '#shared/view/file/open';
import { shownName } from '#shared/view/file/shown-file';
import { humanSize, readableTime } from '#shared/view/markup/format';
import { escapeHtml } from '#shared/view/markup/html';

/**
 * A public folder's files as cards (`/folder/{id}`): each shown as its view page shows it, in small.
 * Images inline (their thumbnail when there is one), video and audio with the browser's controls
 * (a video's thumbnail as its poster, nothing fetched before play), text and code as the first lines,
 * anything else as its type; every card links to the file's `/u/` link. A file with a password or a
 * view limit shows no preview, only its link: a preview is a presigned URL that counts no view, so
 * it would show a protected file without its password and a limited one past its limit.
 */

/** The start of a text file a card shows: a few lines. */
export const SNIPPET_BYTES = 600;
const SNIPPET_LINES = 8;

interface Card {
  file: FileRecord;
  presentation: Presentation | 'withheld';
  /** Presigned URLs: the image or poster, the media. */
  image?: string;
  media?: string;
  snippet?: string;
}

const withheld = (file: FileRecord) => file.passwordHash !== null || file.maxViews !== null;

async function snippetOf(file: FileRecord): Promise<string> {
  if (file.size === 0) return '';
  const bytes = await readObjectStart(file.objectKey, SNIPPET_BYTES);
  const text = new TextDecoder('utf-8').decode(bytes, { stream: file.size > bytes.length });
  return text.split('\n').slice(0, SNIPPET_LINES).join('\n');
}

/** What each card shows: its presigned links and snippet, all made at once. */
export async function cardsOf(files: FileRecord[]): Promise<Card[]> {
  const expiresIn = { expiresIn: VIEW_MEDIA_SECONDS };
  return Promise.all(
    files.map(async (file): Promise<Card> => {
      if (withheld(file)) return { file, presentation: 'withheld' };
      const presentation = presentationOf(file.type, shownName(file));
      const thumbnail = presignThumbnail(file, expiresIn);
      switch (presentation) {
        case 'image':
          return { file, presentation, image: await (thumbnail ?? presignFile(file, expiresIn)) };
        case 'video':
          return {
            file,
            presentation,
            media: await presignFile(file, expiresIn),
            ...(thumbnail ? { image: await thumbnail } : {}),
          };
        case 'audio':
          return { file, presentation, media: await presignFile(file, expiresIn) };
        case 'text':
          return { file, presentation, snippet: await snippetOf(file) };
        case 'download':
          return { file, presentation };
      }
    }),
  );
}

function preview(card: Card, name: string): string {
  const alt = escapeHtml(name);
  switch (card.presentation) {
    case 'image':
      return `<img src="${escapeHtml(card.image ?? '')}" alt="${alt}" loading="lazy">`;
    case 'video':
      return `<video src="${escapeHtml(card.media ?? '')}" controls preload="none"${card.image ? ` poster="${escapeHtml(card.image)}"` : ''}></video>`;
    case 'audio':
      return `<audio src="${escapeHtml(card.media ?? '')}" controls preload="none"></audio>`;
    case 'text':
      return `<pre class="snippet">${escapeHtml(card.snippet ?? '')}</pre>`;
    case 'withheld':
      return `<span class="kind">${card.file.passwordHash !== null ? 'Password protected' : 'Limited views'}</span>`;
    case 'download':
      return `<span class="kind">${escapeHtml(card.file.type)}</span>`;
  }
}

export function renderCard(card: Card): string {
  const { file } = card;
  const name = shownName(file);
  const link = escapeHtml(linkPath(file.name));
  return `<li class="card"><div class="preview">${preview(card, name)}</div>
<a href="${link}">${escapeHtml(name)}</a>
<span class="meta">${humanSize(file.size)} · <time datetime="${escapeHtml(file.createdAt)}">${escapeHtml(readableTime(file.createdAt))}</time></span></li>`;
}

/** The origins the cards load images and media from (the presigned URLs'), for the page's CSP. */
export function cardSources(cards: Card[]): { images: string; media: string } {
  const origins = (urls: (string | undefined)[]) => {
    const found = [...new Set(urls.flatMap((url) => (url ? [new URL(url).origin] : [])))];
    return found.length > 0 ? found.join(' ') : "'none'";
  };
  return {
    images: origins(cards.map((card) => card.image)),
    media: origins(cards.map((card) => card.media)),
  };
}
