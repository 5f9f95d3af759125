import type {
  Role,
  Snapshot,
  SourceFile,
  SourceFolder,
  SourceQuota,
  SourceTag,
  SourceUrl,
} from './source.ts';
import type { ZiplineClient } from './zipline-client.ts';

/**
 * A Zipline 4.x instance read through its API with a SUPERADMIN's token: every user (`/api/users`,
 * avatars included), every user's files page by page (`/api/user/files?id=`), folders (`?user=` where
 * the version takes it: 4.4 does, 4.0 answers the token owner's own), tags (from each file's tags and
 * the token owner's list) and the token owner's short links (`/api/user/urls` has no user parameter in
 * any 4.x: other users' links come only from the export file, `--export`).
 */
interface ApiUser {
  id: string;
  username: string;
  role: Role;
  view: Record<string, unknown> | null;
  quota: (SourceQuota & { filesQuota: SourceQuota['filesQuota'] }) | null;
  avatar?: string | null;
  createdAt: string;
}
interface ApiTag {
  id: string;
  name: string;
  color: string | null;
  createdAt: string;
}
interface ApiFile {
  id: string;
  name: string;
  originalName: string | null;
  type: string;
  size: number;
  views: number;
  maxViews?: number | null;
  deletesAt: string | null;
  favorite: boolean;
  password?: boolean | string | null;
  folderId: string | null;
  tags?: ApiTag[];
  createdAt: string;
}
interface ApiFolder {
  id: string;
  userId: string;
  name: string;
  public: boolean;
  allowUploads?: boolean;
  createdAt: string;
}
/** Zipline 4.0 has no `enabled` column (4.4 does). */
type ApiUrl = Omit<SourceUrl, 'password' | 'userId' | 'enabled'> & {
  userId: string;
  password?: string | null;
  enabled?: boolean;
};

const PER_PAGE = 100;

async function filesOf(client: ZiplineClient, userId: string): Promise<ApiFile[]> {
  const files: ApiFile[] = [];
  for (let page = 1; ; page++) {
    const query = `id=${encodeURIComponent(userId)}&page=${page}&perpage=${PER_PAGE}&sortBy=createdAt&order=asc`;
    const answer = await client.json<{ page: ApiFile[]; pages?: number }>(`/api/user/files?${query}`);
    files.push(...answer.page);
    if (answer.page.length < PER_PAGE || page >= (answer.pages ?? page)) return files;
  }
}

function protection(password: ApiFile['password']): true | string | null {
  if (!password) return null;
  return password === true ? true : password;
}

export async function readThroughApi(client: ZiplineClient): Promise<Snapshot> {
  const me = await client.json<{ user?: ApiUser } & Partial<ApiUser>>('/api/user');
  const meId = me.user?.id ?? me.id;
  const users = await client.json<ApiUser[]>('/api/users');
  const notes: string[] = [];
  const folders = new Map<string, SourceFolder>();
  const tags = new Map<string, SourceTag>();
  const files: SourceFile[] = [];
  for (const user of users) {
    const own = await client.json<ApiFolder[]>(
      `/api/user/folders?noincl=true&user=${encodeURIComponent(user.id)}`,
    );
    for (const folder of own.filter((row) => row.userId === user.id)) {
      const { id, name, createdAt } = folder;
      folders.set(id, {
        id,
        userId: user.id,
        name,
        public: folder.public,
        allowUploads: !!folder.allowUploads,
        createdAt,
      });
    }
    for (const file of await filesOf(client, user.id)) {
      for (const tag of file.tags ?? []) {
        tags.set(tag.id, {
          id: tag.id,
          userId: user.id,
          name: tag.name,
          color: tag.color,
          createdAt: tag.createdAt,
        });
      }
      files.push({
        id: file.id,
        userId: user.id,
        name: file.name,
        originalName: file.originalName,
        type: file.type,
        size: file.size,
        views: file.views,
        maxViews: file.maxViews ?? null,
        deletesAt: file.deletesAt,
        favorite: file.favorite,
        password: protection(file.password),
        folderId: file.folderId,
        tagIds: (file.tags ?? []).map((tag) => tag.id),
        createdAt: file.createdAt,
      });
    }
  }
  for (const tag of await client.json<ApiTag[]>('/api/user/tags')) {
    if (meId && !tags.has(tag.id)) {
      tags.set(tag.id, {
        id: tag.id,
        userId: meId,
        name: tag.name,
        color: tag.color,
        createdAt: tag.createdAt,
      });
    }
  }
  const urls = (await client.json<ApiUrl[]>('/api/user/urls')).map(
    (url): SourceUrl => ({
      ...url,
      maxViews: url.maxViews ?? null,
      password: url.password ?? null,
      enabled: url.enabled ?? true,
    }),
  );
  const unreadableFolders = files.filter((file) => file.folderId && !folders.has(file.folderId));
  for (const file of unreadableFolders) file.folderId = null;
  if (unreadableFolders.length) {
    notes.push(
      `${unreadableFolders.length} file(s) are in folders this Zipline's API does not show to another user: imported without their folder (use --export for folders)`,
    );
  }
  if (users.length > 1)
    notes.push("other users' short links are not readable through Zipline's API (use --export)");
  return {
    users: users.map((user) => ({
      id: user.id,
      username: user.username,
      role: user.role,
      view: user.view ?? {},
      quota: user.quota
        ? {
            filesQuota: user.quota.filesQuota,
            maxBytes: user.quota.maxBytes ?? null,
            maxFiles: user.quota.maxFiles ?? null,
            maxUrls: user.quota.maxUrls ?? null,
          }
        : null,
      avatar: user.avatar ?? null,
      createdAt: user.createdAt,
    })),
    folders: [...folders.values()],
    tags: [...tags.values()],
    urls,
    files,
    notes,
  };
}
