import { listFolderFiles } from '#shared/files/listing/folder';
import { type FileRecord, linkPath } from '#shared/files/model';
import { FOLDER_NOT_FOUND } from '#shared/files/record/folder-membership';
import { findFolder } from '#shared/folders/store';
import type { HttpRequest } from '#shared/http/request';
import { errorResponse, type HttpResult, html } from '#shared/http/response';
import { renderDocument } from '#shared/view/markup/document';
import { humanSize, readableTime } from '#shared/view/markup/format';
import { escapeHtml } from '#shared/view/markup/html';

/**
 * A public folder's page (`/folder/{id}`, Zipline's): server-rendered in the view page's frame (one
 * hashed stylesheet, no script, nothing else loaded), its newest `FOLDER_PAGE_FILES` files, each as
 * its name linking to the file's `/u/` link (which shows it as its view page or the file, and asks
 * for a protected file's password), its type, size and upload time. Only while the folder is public;
 * a private, unknown or deleted folder is the same 404. Lists no view.
 */
export const FOLDER_PAGE_FILES = 100;

const row = (file: FileRecord) =>
  `<li><a href="${escapeHtml(linkPath(file.name))}">${escapeHtml(file.name)}</a> <span class="meta">${escapeHtml(file.type)} · ${humanSize(file.size)} · ${readableTime(file.createdAt)}${file.passwordHash ? ' · password' : ''}</span></li>`;

export async function folderPage(request: HttpRequest, folderId: string): Promise<HttpResult> {
  const folder = await findFolder(folderId);
  if (!folder?.public) return folderNotFound(request);
  const { files } = await listFolderFiles(folder.userId, folder.id, {
    sortBy: 'createdAt',
    order: 'desc',
    filter: 'all',
    favoriteOnly: false,
    perpage: FOLDER_PAGE_FILES,
    page: 1,
  });
  const title = escapeHtml(folder.name);
  const count = `${folder.files} file${folder.files === 1 ? '' : 's'}`;
  const more = folder.files > files.length ? ` (the newest ${files.length} shown)` : '';
  const rendered = renderDocument({
    title,
    head: '<meta name="robots" content="noindex">\n',
    mainClass: 'left',
    main: `<h1>${title}</h1>\n<p class="meta">${count}${more}</p>\n<ul>\n${files.map(row).join('\n')}\n</ul>`,
    sources: [],
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
