/** A folder (issue 35): Zipline 4.4's Folder, without subfolders. Its files are its members (files/record/folder-membership.ts). */
export interface FolderRecord {
  id: string;
  userId: string;
  name: string;
  public: boolean;
  allowUploads: boolean;
  createdAt: string;
  updatedAt: string;
  /** How many files are in it: the folder listing's total, moved in each move's transaction. */
  files: number;
}

/**
 * The Folder resource, as Zipline 4.4 answers it without `files` (its `noincl`): the files come
 * paged from `GET /api/user/files?folder=<id>`; `parentId` is always null (no subfolders here).
 */
export const toFolderResource = (folder: FolderRecord) => ({
  id: folder.id,
  name: folder.name,
  public: folder.public,
  allowUploads: folder.allowUploads,
  createdAt: folder.createdAt,
  updatedAt: folder.updatedAt,
  userId: folder.userId,
  parentId: null,
  _count: { files: folder.files },
});

/** The public page of a folder. */
export const folderPagePath = (id: string) => `/folder/${encodeURIComponent(id)}`;
