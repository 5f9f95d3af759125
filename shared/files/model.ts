import { notFound } from '#shared/errors';

/** A file's metadata as stored (minus the generic key and index attributes). */
export interface FileRecord {
  id: string;
  /** Public, unique name: the link is `/u/<name>` (`linkPath`), the download `/raw/<name>`. */
  name: string;
  /** The client's file name; private to the owner. */
  originalName: string;
  size: number;
  type: string;
  views: number;
  maxViews: number | null;
  favorite: boolean;
  createdAt: string;
  updatedAt: string;
  deletesAt: string | null;
  /** Downloads are named `originalName` instead of `name` (`x-zipline-original-name: true`). */
  downloadAsOriginalName: boolean;
  objectKey: string;
  /** bcrypt hash of the file's password (`x-zipline-password`, PATCH `password`), or null: never sent out. */
  passwordHash: string | null;
  /** Bumped by every metadata change: the optimistic lock of PATCH and DELETE. */
  version: number;
  /** The WebP preview the thumbnail function made of an image (its key follows from `objectKey`), or null. */
  thumbnail: Thumbnail | null;
  /** The owner's folder the file is in (folders/membership.ts), or null. */
  folderId: string | null;
  /** The ids of the owner's tags the file has (docs/tags.md), at most `MAX_TAGS_PER_FILE`. */
  tags: string[];
}

/** How many tags a file may have: each is a membership item written with every change of the file. */
export const MAX_TAGS_PER_FILE = 20;

/** A tag as a File lists it: Zipline's Tag without its files. */
export interface TagSummary {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  color: string;
}

/** A made thumbnail: WebP, at most `THUMBNAIL_PIXELS` on its longer side. */
export interface Thumbnail {
  width: number;
  height: number;
  /** Bytes of the WebP. */
  size: number;
}

/**
 * The File resource of the API, Zipline 4.4's File: no owner id, no storage details. `url` is the
 * link's path (clients prefix their origin, as with Zipline's); `thumbnail` `{path}` with the owner's
 * path to the WebP preview, null while none exists; `folderId` the folder it is in or null; `tags`
 * the file's tags as objects, Zipline's `tags`.
 */
export type FileResource = Omit<
  FileRecord,
  'downloadAsOriginalName' | 'objectKey' | 'version' | 'passwordHash' | 'thumbnail' | 'tags'
> & {
  /** Whether `/raw/{name}` asks for a password (never the hash). */
  password: boolean;
  url: string;
  thumbnail: { path: string } | null;
  folderId: string | null;
  tags: TagSummary[];
};

/**
 * The link a file is shared by, Zipline's default files route: `/u/<name>` shows the view page while
 * the owner has view pages on, else the file (shared/view/file/link.ts), so the link never changes
 * with the setting. `/view/<name>` and `/raw/<name>` links stay valid.
 */
export const linkPath = (name: string) => `/u/${encodeURIComponent(name)}`;

/** The owner's route to a file's thumbnail (the dashboard's grid loads it with the session). */
export const thumbnailPath = (id: string) => `/api/user/files/${encodeURIComponent(id)}/thumbnail`;

/** The resource of a file; `tags` looks its tag ids up (a tag deleted meanwhile is left out). */
export function toFileResource(
  file: FileRecord,
  tags: ReadonlyMap<string, TagSummary> = new Map(),
): FileResource {
  return {
    id: file.id,
    name: file.name,
    originalName: file.originalName,
    size: file.size,
    type: file.type,
    views: file.views,
    maxViews: file.maxViews,
    favorite: file.favorite,
    createdAt: file.createdAt,
    updatedAt: file.updatedAt,
    deletesAt: file.deletesAt,
    password: file.passwordHash !== null,
    url: linkPath(file.name),
    thumbnail: file.thumbnail ? { path: thumbnailPath(file.id) } : null,
    folderId: file.folderId,
    tags: file.tags.flatMap((id) => tags.get(id) ?? []),
  };
}

/**
 * The answer to an upload: absolute URLs (uploaders copy them as they are) and, when the upload set
 * an expiry, `deletesAt` beside `files` (uploader configs read it there).
 */
export function toUploadResult(files: FileRecord[], origin: string) {
  const deletesAt = files[0]?.deletesAt ?? null;
  return {
    files: files.map((file) => ({
      id: file.id,
      name: file.name,
      type: file.type,
      url: `${origin}${linkPath(file.name)}`,
    })),
    ...(deletesAt === null ? {} : { deletesAt }),
  };
}

export const SORT_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'deletesAt',
  'name',
  'originalName',
  'size',
  'type',
  'views',
  'favorite',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** `tags` lists the files having every tag of a comma-separated list of ids (listing/by-tag.ts). */
export const SEARCH_FIELDS = ['name', 'originalName', 'type', 'id', 'tags'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
/** The fields a search matches as text in the search index (`tags` is a listing by tag instead). */
export type TextSearchField = Exclude<SearchField, 'tags'>;

/** `dashboard` keeps what the dashboard previews; `none` (no folder or tag) is every file here. */
export const LIST_FILTERS = ['all', 'none', 'dashboard'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

const MEDIA_TYPE = /^(image|video|audio|text)\//i;
export const isMedia = (type: string) => MEDIA_TYPE.test(type);

/** Per-user counters, kept exact by the transactions that write file metadata. */
export interface FileStats {
  files: number;
  bytes: number;
  favorites: number;
  media: number;
  favoriteMedia: number;
}

/**
 * Past its `deletesAt`: gone for everyone, its owner included, from that moment, though the sweep
 * (files/expiry/sweep.ts) deletes it up to a minute later.
 */
export const isExpired = (file: Pick<FileRecord, 'deletesAt'>, now = new Date()) =>
  file.deletesAt !== null && file.deletesAt <= now.toISOString();

/**
 * A file the caller asked for by id: absent (or another user's, whose key differs) or expired is a
 * 404.
 */
export const requireFile = (file: FileRecord | undefined, now = new Date()): FileRecord => {
  if (!file || isExpired(file, now)) throw notFound('file not found');
  return file;
};
