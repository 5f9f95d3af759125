import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import type { Snapshot, SourceQuota } from './source.ts';

/**
 * Zipline's server export, format 4 (`GET /api/server/export` of Zipline 4.x, `versions.export: "4"`):
 * one JSON document with every user, quota, tag, folder, short link and file row. Only the fields the
 * import moves are read; the rest (password hashes, TOTP secrets, OAuth tokens, passkeys, invites,
 * metrics, the server's environment) is validated loosely and dropped here.
 */
const date = v.pipe(
  v.string(),
  v.check((text) => !Number.isNaN(Date.parse(text)), 'not a date'),
);
const optionalText = v.optional(v.nullable(v.string()), null);
const optionalCount = v.optional(v.nullable(v.number()), null);

const export4Schema = v.object({
  versions: v.object({ export: v.literal('4'), zipline: v.string() }),
  data: v.object({
    users: v.array(
      v.object({
        id: v.string(),
        createdAt: date,
        username: v.string(),
        avatar: optionalText,
        role: v.picklist(['USER', 'ADMIN', 'SUPERADMIN']),
        view: v.record(v.string(), v.unknown()),
      }),
    ),
    userQuotas: v.array(
      v.object({
        filesQuota: v.picklist(['BY_BYTES', 'BY_FILES']),
        maxBytes: optionalText,
        maxFiles: optionalCount,
        maxUrls: optionalCount,
        userId: optionalText,
      }),
    ),
    userPasskeys: v.array(v.unknown()),
    userOauthProviders: v.array(v.unknown()),
    userTags: v.array(
      v.object({
        id: v.string(),
        createdAt: date,
        name: v.string(),
        color: optionalText,
        files: v.array(v.string()),
        userId: v.string(),
      }),
    ),
    folders: v.array(
      v.object({
        id: v.string(),
        createdAt: date,
        name: v.string(),
        public: v.boolean(),
        allowUploads: v.optional(v.boolean(), false),
        userId: v.string(),
      }),
    ),
    urls: v.array(
      v.object({
        id: v.string(),
        createdAt: date,
        code: v.string(),
        vanity: optionalText,
        destination: v.string(),
        views: v.number(),
        maxViews: optionalCount,
        password: optionalText,
        enabled: v.optional(v.boolean(), true),
        userId: optionalText,
      }),
    ),
    files: v.array(
      v.object({
        id: v.string(),
        createdAt: date,
        deletesAt: optionalText,
        name: v.string(),
        originalName: optionalText,
        size: v.number(),
        type: v.string(),
        views: v.number(),
        maxViews: optionalCount,
        favorite: v.boolean(),
        password: optionalText,
        userId: v.nullable(v.string()),
        folderId: optionalText,
      }),
    ),
  }),
});

export type Export4 = v.InferOutput<typeof export4Schema>;

/** The export's rows as a snapshot; rows without an owner (Zipline keeps files of deleted users) are noted, not moved. */
export function snapshotOfExport(document: unknown): Snapshot {
  const parsed = v.safeParse(export4Schema, document);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? (v.getDotPath(issue) ?? '(top)') : '(top)';
    throw new Error(`not a Zipline v4 server export: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const { data } = parsed.output;
  const quotas = new Map<string, SourceQuota>();
  for (const quota of data.userQuotas) {
    if (!quota.userId) continue;
    const { filesQuota, maxBytes, maxFiles, maxUrls } = quota;
    quotas.set(quota.userId, { filesQuota, maxBytes, maxFiles, maxUrls });
  }
  const tagsOfFile = new Map<string, string[]>();
  for (const tag of data.userTags) {
    for (const fileId of tag.files) tagsOfFile.set(fileId, [...(tagsOfFile.get(fileId) ?? []), tag.id]);
  }
  const notes: string[] = [];
  const ownerless = data.files.filter((file) => !file.userId).length;
  if (ownerless)
    notes.push(`${ownerless} file(s) without an owner in Zipline (their user was deleted) are not moved`);
  const ownerlessUrls = data.urls.filter((url) => !url.userId).length;
  if (ownerlessUrls) notes.push(`${ownerlessUrls} short link(s) without an owner in Zipline are not moved`);
  const leftBehind = data.userPasskeys.length + data.userOauthProviders.length;
  if (leftBehind)
    notes.push(`${leftBehind} passkey(s) and OAuth link(s) cannot move (docs/migrate-from-zipline.md)`);
  return {
    users: data.users.map((user) => ({
      id: user.id,
      username: user.username,
      role: user.role,
      view: user.view,
      quota: quotas.get(user.id) ?? null,
      avatar: user.avatar,
      createdAt: user.createdAt,
    })),
    folders: data.folders.map(({ id, userId, name, allowUploads, createdAt, ...folder }) => ({
      id,
      userId,
      name,
      public: folder.public,
      allowUploads,
      createdAt,
    })),
    tags: data.userTags.map(({ id, userId, name, color, createdAt }) => ({
      id,
      userId,
      name,
      color,
      createdAt,
    })),
    urls: data.urls.flatMap((url) => (url.userId ? [{ ...url, userId: url.userId }] : [])),
    files: data.files.flatMap((file) =>
      file.userId
        ? [
            {
              ...file,
              userId: file.userId,
              folderId: file.folderId,
              tagIds: tagsOfFile.get(file.id) ?? [],
            },
          ]
        : [],
    ),
    notes,
  };
}

export async function readExportFile(path: string): Promise<Snapshot> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the export file ${path}: ${(error as Error).message}`);
  }
  return snapshotOfExport(document);
}
