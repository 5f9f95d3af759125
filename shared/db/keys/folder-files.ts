/**
 * The file index partition of a folder's files (issue 35), as `filesPartition` is the library's and
 * `tagFilesPartition` a tag's: a folder's member items (`folderMemberKey`) carry the file's index
 * attributes under it, so the nine file order indexes list a folder in every order, keyed, page by
 * page (docs/folders.md). Kept out of keys.ts while that file is being split.
 */
export const folderFilesPartition = (userId: string, folderId: string) =>
  `FILES#${userId}#FOLDER#${folderId}`;
