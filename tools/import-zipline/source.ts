/**
 * What the import reads from a Zipline 4.x instance, whichever way it was read (its API or its server
 * export file): the rows the target's import routes take, keyed by their Zipline ids. Secrets a
 * Zipline export carries (password hashes, TOTP secrets, OAuth tokens, passkeys, its environment)
 * never enter this shape: they cannot move (docs/migrate-from-zipline.md).
 */
export type Role = 'USER' | 'ADMIN' | 'SUPERADMIN';

export interface SourceQuota {
  filesQuota: 'BY_BYTES' | 'BY_FILES';
  maxBytes: string | null;
  maxFiles: number | null;
  maxUrls: number | null;
}

export interface SourceUser {
  id: string;
  username: string;
  role: Role;
  view: Record<string, unknown>;
  quota: SourceQuota | null;
  /** A data URL (`data:image/png;base64,...`), as Zipline stores it. */
  avatar: string | null;
  createdAt: string;
}

export interface SourceFolder {
  id: string;
  userId: string;
  name: string;
  public: boolean;
  allowUploads: boolean;
  createdAt: string;
}

export interface SourceTag {
  id: string;
  userId: string;
  name: string;
  color: string | null;
  createdAt: string;
}

/** `true`: protected, hash unknown (the API says only that); a string: the stored hash (export file). */
export type SourcePassword = null | true | string;

export interface SourceUrl {
  id: string;
  userId: string;
  code: string;
  vanity: string | null;
  destination: string;
  views: number;
  maxViews: number | null;
  enabled: boolean;
  password: SourcePassword;
  createdAt: string;
}

export interface SourceFile {
  id: string;
  userId: string;
  name: string;
  originalName: string | null;
  type: string;
  size: number;
  views: number;
  maxViews: number | null;
  deletesAt: string | null;
  favorite: boolean;
  password: SourcePassword;
  folderId: string | null;
  tagIds: string[];
  createdAt: string;
}

export interface Snapshot {
  users: SourceUser[];
  folders: SourceFolder[];
  tags: SourceTag[];
  urls: SourceUrl[];
  files: SourceFile[];
  /** What the source could not give, said once each (e.g. other users' short links through the API). */
  notes: string[];
}
