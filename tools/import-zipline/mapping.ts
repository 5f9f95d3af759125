import type { SourceFile, SourceFolder, SourcePassword, SourceTag, SourceUrl, SourceUser } from './source.ts';

/**
 * Zipline rows → the bodies of the target's import routes (/work/notes/import-interface.md, kept in
 * docs/migrate-from-zipline.md). Every field the target takes is carried; what it does not take
 * (Zipline's internal ids, hashes it cannot check) is either a reference by Zipline id or dropped.
 */
const AVATAR_LIMIT = 1024 * 1024;
const DEFAULT_TAG_COLOR = '#868e96';

/** The view settings the target knows (those of `PATCH /api/user`): Zipline 4.0 through 4.4 have no others. */
const VIEW_FIELDS = new Set([
  'enabled',
  'align',
  'showMimetype',
  'showTags',
  'showFolder',
  'remoteImages',
  'content',
  'embed',
  'embedTitle',
  'embedDescription',
  'embedColor',
  'embedSiteName',
  'allowIndexing',
]);

/** Zipline's view settings are nullable; the target takes only the known ones, set, as strings and booleans. */
export function viewSettings(view: Record<string, unknown>): Record<string, string | boolean> {
  const settings: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(view)) {
    if (VIEW_FIELDS.has(key) && (typeof value === 'string' || typeof value === 'boolean'))
      settings[key] = value;
  }
  return settings;
}

export function userBody(user: SourceUser, adoptExisting: boolean) {
  const dropped: string[] = [];
  let avatar = user.avatar;
  if (avatar && !avatar.startsWith('data:')) avatar = `data:image/png;base64,${avatar}`;
  if (avatar && avatar.length > AVATAR_LIMIT) {
    dropped.push(`avatar of ${avatar.length} characters is over the 1 MiB the target takes`);
    avatar = null;
  }
  return {
    body: {
      username: user.username,
      role: user.role,
      view: viewSettings(user.view),
      quota: user.quota,
      avatar,
      createdAt: user.createdAt,
      ...(adoptExisting ? { adoptExisting: true } : {}),
    },
    dropped,
  };
}

/**
 * A protected file or link stays protected. The target checks bcrypt: a bcrypt hash is passed on (it
 * still works), anything else (Zipline 4's argon2, or the API's bare `true`) goes as `true`, imported
 * locked (the owner sets a new password); an argon2 hash never leaves the machine.
 */
export function protection(password: SourcePassword): true | string | null {
  if (!password) return null;
  return typeof password === 'string' && /^\$2[aby]\$/.test(password) ? password : true;
}

export function folderBody(folder: SourceFolder) {
  return {
    owner: folder.userId,
    name: folder.name,
    public: folder.public,
    allowUploads: folder.allowUploads,
    createdAt: folder.createdAt,
  };
}

/** Zipline 4 keeps `#rgb` or `#rrggbb`; the target takes `#rrggbb`. */
export function tagColor(color: string | null): string {
  if (!color) return DEFAULT_TAG_COLOR;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase();
  return /^#[0-9a-f]{6}$/i.test(color) ? color.toLowerCase() : DEFAULT_TAG_COLOR;
}

export function tagBody(tag: SourceTag) {
  return { owner: tag.userId, name: tag.name, color: tagColor(tag.color), createdAt: tag.createdAt };
}

export function urlBody(url: SourceUrl) {
  return {
    owner: url.userId,
    code: url.code,
    vanity: url.vanity,
    destination: url.destination,
    views: url.views,
    maxViews: url.maxViews,
    enabled: url.enabled,
    password: protection(url.password),
    createdAt: url.createdAt,
  };
}

/** `known` says which folders and tags the target has from this run: a reference to one it lacks is dropped and said. */
export function fileBody(
  file: SourceFile,
  known: { folder: (id: string) => boolean; tag: (id: string) => boolean },
) {
  const dropped: string[] = [];
  let folder = file.folderId;
  if (folder && !known.folder(folder)) {
    dropped.push(`folder ${folder} (not imported)`);
    folder = null;
  }
  const tags = file.tagIds.filter((id) => known.tag(id));
  if (tags.length < file.tagIds.length)
    dropped.push(`${file.tagIds.length - tags.length} tag(s) not imported`);
  return {
    body: {
      owner: file.userId,
      name: file.name,
      originalName: file.originalName,
      type: file.type || 'application/octet-stream',
      size: file.size,
      views: file.views,
      maxViews: file.maxViews,
      deletesAt: file.deletesAt,
      favorite: file.favorite,
      password: protection(file.password),
      folder,
      tags,
      createdAt: file.createdAt,
    },
    dropped,
  };
}
