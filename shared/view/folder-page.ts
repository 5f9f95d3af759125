import { listFolderFiles } from '#shared/files/listing/folder';
import { FOLDER_NOT_FOUND } from '#shared/files/record/folder-membership';
import { findFolder } from '#shared/folders/store';
import type { HttpRequest } from '#shared/http/request';
import { errorResponse, type HttpResult, html } from '#shared/http/response';
import { cardSources, cardsOf, renderCard } from '#shared/view/folder-cards';
import { renderDocument } from '#shared/view/markup/document';
import { escapeHtml } from '#shared/view/markup/html';

/**
 * A public folder's page (`/folder/{id}`, Zipline's): server-rendered in the view page's frame (one
 * hashed stylesheet, no script, nothing loaded but the previews' presigned URLs, whose origin the
 * CSP names), `FOLDER_PAGE_FILES` files a page, newest first, each shown as its view page shows it
 * (folder-cards.ts). Further pages follow by a signed cursor (`?after=`), so every page costs what
 * the first does, however deep (docs/folders.md). Only while the folder is public; a private,
 * unknown or deleted folder is the same 404. Counts no view.
 */
export const FOLDER_PAGE_FILES = 24;

export async function folderPage(
  request: HttpRequest,
  folderId: string,
  after: string | undefined,
): Promise<HttpResult> {
  const folder = await findFolder(folderId);
  if (!folder?.public) return folderNotFound(request);
  const { files, nextCursor } = await listFolderFiles(folder.userId, folder.id, {
    sortBy: 'createdAt',
    order: 'desc',
    filter: 'all',
    favoriteOnly: false,
    perpage: FOLDER_PAGE_FILES,
    page: 1,
    ...(after === undefined ? {} : { cursor: after }),
  });
  const cards = await cardsOf(files);
  const sources = cardSources(cards);
  const title = escapeHtml(folder.name);
  const count = `${folder.files} file${folder.files === 1 ? '' : 's'}`;
  const here = `/folder/${encodeURIComponent(folder.id)}`;
  const links = [
    ...(after === undefined ? [] : [`<a href="${here}">Newest files</a>`]),
    ...(nextCursor ? [`<a href="${here}?after=${encodeURIComponent(nextCursor)}">Older files</a>`] : []),
  ];
  const rendered = renderDocument({
    title,
    head: '<meta name="robots" content="noindex">\n',
    mainClass: 'left',
    main: `<h1>${title}</h1>
<p class="meta">${count}${files.length === 0 && folder.files > 0 ? ' (no more here)' : ''}</p>
<ul class="cards">
${cards.map(renderCard).join('\n')}
</ul>
${links.length > 0 ? `<nav class="pages">${links.join(' ')}</nav>` : ''}`,
    sources: [`img-src ${sources.images}`, `media-src ${sources.media}`],
  });
  return html(200, rendered.html, rendered.csp);
}

/** A folder that is not public, unknown or deleted: one 404, a page for browsers and JSON for other clients. */
export function folderNotFound(request: HttpRequest): HttpResult {
  if (!/\btext\/html\b/i.test(request.headers.accept ?? '')) return errorResponse(404, FOLDER_NOT_FOUND);
  const rendered = renderDocument({
    title: 'Folder not available',
    head: '<meta name="robots" content="noindex">\n',
    mainClass: 'center',
    main: '<h1>Folder not available</h1>\n<p>There is no folder here, or it is not public.</p>',
    sources: [],
  });
  return html(404, rendered.html, rendered.csp);
}
