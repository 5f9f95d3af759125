import { readObjectStart } from '#shared/files/bucket/objects';
import { embedImageOf, hasStableEmbed, showsEmbedImage } from '#shared/files/embed-image';
import type { FileRecord } from '#shared/files/model';
import { isServedInline, isUtf8 } from '#shared/files/presentation';
import { presignFile, presignThumbnail } from '#shared/files/serve/access';
import { languageIdOf } from '#shared/view/code/language-names';
import {
  findViewable,
  type GivenPassword,
  shownName,
  type Viewable,
  type ViewOwner,
} from '#shared/view/file/shown-file';

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

/**
 * How the page shows a file of this type and name. A file stored as `application/octet-stream`
 * whose name is code the page highlights (`script.py` from curl or ShareX, which send that type, and
 * `.py` has none in the types database) is shown as its code; HTML, XML and SVG stay downloads.
 */
export function presentationOf(type: string, fileName: string): Presentation {
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (TEXT_TYPES.test(essence)) return 'text';
  const code = essence === 'application/octet-stream' ? languageIdOf(fileName, essence) : undefined;
  if (code !== undefined && code !== 'markup') return 'text';
  // Only what the download rule serves inline is embedded; the rest is a download button.
  if (!isServedInline(essence)) return 'download';
  const [kind] = essence.split('/');
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'download';
}

export interface ViewPage {
  file: FileRecord;
  owner: ViewOwner;
  presentation: Presentation;
  /** The bytes as the page embeds or links them (inline where the download rule allows it). */
  mediaUrl: string;
  /** The same bytes as an attachment. */
  downloadUrl: string;
  /** The image's WebP thumbnail, when an embed shows it through the page's presigned URL. */
  thumbnailUrl?: string;
  /** For text: the start of the file, and whether there is more. */
  excerpt?: { text: string; truncated: boolean };
}

/**
 * Opens the view page of the file published under `name` (see `findViewable`; a protected file
 * needs `password`). A GET (or the password form's POST) counts the view, once for the whole page:
 * the media and download links are presigned URLs, which count nothing. HEAD counts nothing.
 */
export async function openViewPage(
  name: string,
  options: { head: boolean; password?: GivenPassword },
): Promise<ViewPage> {
  return presentViewPage(
    await findViewable(name, {
      count: !options.head,
      ...(options.password ? { password: options.password } : {}),
    }),
  );
}

/** The page of a file found viewable (its view already counted): its links and text excerpt. */
export async function presentViewPage({ file, owner }: Viewable): Promise<ViewPage> {
  const presentation = presentationOf(file.type, shownName(file));
  // The excerpt's bytes tell whether the text link may say charset=utf-8 (signing is local work).
  const excerpt = presentation === 'text' ? await readExcerpt(file) : undefined;
  const media = { expiresIn: VIEW_MEDIA_SECONDS, utf8: excerpt?.utf8 === true };
  const [mediaUrl, downloadUrl, thumbnailUrl] = await Promise.all([
    presignFile(file, media),
    presignFile(file, { ...media, attachment: true }),
    needsPresignedPreview(file, owner, presentation)
      ? presignThumbnail(file, { expiresIn: VIEW_MEDIA_SECONDS })
      : undefined,
  ]);
  return {
    file,
    owner,
    presentation,
    mediaUrl,
    downloadUrl,
    ...(excerpt ? { excerpt: { text: excerpt.text, truncated: excerpt.truncated } } : {}),
    ...(thumbnailUrl ? { thumbnailUrl } : {}),
  };
}

/** The embed shows the preview, and not through the file's stable link (embed-image.ts). */
const needsPresignedPreview = (file: FileRecord, owner: ViewOwner, presentation: Presentation) =>
  showsEmbedImage(presentation) &&
  owner.view.embed === true &&
  embedImageOf(file) === 'preview' &&
  !hasStableEmbed(file);

async function readExcerpt(file: FileRecord): Promise<{ text: string; truncated: boolean; utf8: boolean }> {
  if (file.size === 0) return { text: '', truncated: false, utf8: true };
  const bytes = await readObjectStart(file.objectKey, TEXT_EXCERPT_BYTES);
  const truncated = file.size > bytes.length;
  // `stream: true` holds back a character the cap cut in half instead of showing a replacement.
  const text = new TextDecoder('utf-8').decode(bytes, { stream: truncated });
  return { text, truncated, utf8: isUtf8(bytes, !truncated) };
}
