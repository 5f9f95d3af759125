import { notFound } from '#shared/errors';
import { presignFile } from '#shared/files/access';
import type { FileRecord } from '#shared/files/model';
import { isServedInline, readObjectStart } from '#shared/files/objects';
import { countFileView, downloadableFile, findNameClaim } from '#shared/files/store';
import type { ViewSettings } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/** How the page shows a file. */
export type Presentation = 'image' | 'video' | 'audio' | 'text' | 'download';

/** Text and code shown as (escaped) text; HTML and XML are never among them. */
const TEXT_TYPES =
  /^(text\/(plain|markdown|x-markdown|csv|tab-separated-values|css|javascript|x-[\w.+-]+)|application\/(json|x-ndjson|javascript|x-javascript|ecmascript|x-sh|x-shellscript|yaml|x-yaml|toml|x-toml|sql|graphql))$/;

/** The start of a text file the page shows; a link leads to the whole file. */
export const TEXT_EXCERPT_BYTES = 64 * 1024;

/**
 * The page's media and download links live longer than `/raw`'s minute: a video player fetches
 * ranges while it plays, and a visitor may press the button a while after the page loaded.
 */
export const VIEW_MEDIA_SECONDS = 15 * 60;

export function presentationOf(type: string): Presentation {
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (TEXT_TYPES.test(essence)) return 'text';
  // Only what the download rule serves inline is embedded; the rest is a download button.
  if (!isServedInline(essence)) return 'download';
  const [kind] = essence.split('/');
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'download';
}

export interface ViewPage {
  file: FileRecord;
  owner: { username: string; view: ViewSettings };
  presentation: Presentation;
  /** The bytes as the page embeds or links them (inline where the download rule allows it). */
  mediaUrl: string;
  /** The same bytes as an attachment. */
  downloadUrl: string;
  /** For text: the start of the file, and whether there is more. */
  excerpt?: { text: string; truncated: boolean };
}

/**
 * Opens the view page of the file published under `name`: 404 (the download's own answer) unless
 * its owner has view pages enabled and a download would be served now. A GET counts the view, once
 * for the whole page: the media and download links are presigned URLs, which count nothing. HEAD
 * counts nothing.
 */
export async function openViewPage(name: string, options: { head: boolean }): Promise<ViewPage> {
  const claim = await findNameClaim(name);
  if (!claim) throw notFound('file not found');
  const owner = await getUser(claim.userId);
  if (!owner || owner.deletingAt !== undefined || owner.view.enabled !== true)
    throw notFound('file not found');
  // A password-protected file is the 404 of an unknown name here (no password form yet): the count's
  // condition refuses it, and HEAD checks the same, so the page is no oracle for protected names.
  const file = options.head
    ? await downloadableFile(claim.userId, claim.fileId)
    : await countFileView(claim.userId, claim.fileId, null);
  if (!file || file.passwordHash !== null) throw notFound('file not found');

  const presentation = presentationOf(file.type);
  const [mediaUrl, downloadUrl, excerpt] = await Promise.all([
    presignFile(file, { expiresIn: VIEW_MEDIA_SECONDS }),
    presignFile(file, { attachment: true, expiresIn: VIEW_MEDIA_SECONDS }),
    presentation === 'text' ? readExcerpt(file) : undefined,
  ]);
  return {
    file,
    owner: { username: owner.username, view: owner.view },
    presentation,
    mediaUrl,
    downloadUrl,
    ...(excerpt ? { excerpt } : {}),
  };
}

async function readExcerpt(file: FileRecord): Promise<{ text: string; truncated: boolean }> {
  if (file.size === 0) return { text: '', truncated: false };
  const bytes = await readObjectStart(file.objectKey, TEXT_EXCERPT_BYTES);
  // `stream: true` holds back a character the cap cut in half instead of showing a replacement.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: file.size > bytes.length });
  return { text, truncated: file.size > bytes.length };
}
