import { SORT_INDEXES } from '#shared/files/record/indexing';
import type { TableAccess } from '#shared/routes/grants';

/** Organising a library: folders, bulk changes, tags and exports. */
export const LIBRARY_ACCESS = {
  // Folders (issue 35): the folder in its owner's partition, its owner item and its files' member
  // items in its own (FOLDER); a move changes the file, the member items and both folders' counters
  // in one transaction with the owner's check.
  folderList: { items: { Query: ['USER'] } },
  folderCreate: {
    items: {
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FOLDER'],
      GetItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['FOLDER'],
    },
  },
  folderGet: { items: { GetItem: ['USER'] } },
  folderAddFile: {
    items: {
      GetItem: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['FOLDER'],
      DeleteItem: ['FOLDER'],
    },
  },
  folderPatch: { items: { GetItem: ['USER'], UpdateItem: ['USER'] } },
  // Emptying: each file moved out, or deleted as a file DELETE; then the folder and its owner item.
  folderDelete: {
    items: {
      GetItem: ['USER'],
      Query: ['FOLDER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER', 'FILENAME', 'FOLDER'],
    },
  },
  // `/folder/{id}`: the folder's owner item, the folder, a page of its members and their files, and
  // the owner's files past expiry not yet swept (the deletesAt index), which the page leaves out.
  folderPage: {
    items: { GetItem: ['FOLDER', 'USER'], Query: ['FOLDER'], BatchGetItem: ['USER'] },
    indexes: [SORT_INDEXES.deletesAt.index as string],
  },
  // A favourite toggle rewrites the file's tag memberships (USER) and folder member item (FOLDER)
  // with its new sort keys; a tag change adds (checking the tag: ConditionCheckItem USER) and
  // deletes memberships (USER).
  filesBulkPatch: {
    items: {
      GetItem: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['USER', 'FOLDER'],
      DeleteItem: ['USER', 'FOLDER'],
    },
  },
  // Each file as DELETE deletes it, a popular file's view counters (FILEVIEWS) after it.
  filesBulkDelete: {
    items: {
      GetItem: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER', 'FILENAME', 'FOLDER'],
      BatchWriteItem: ['FILEVIEWS'],
    },
  },
  // Tags (issue 35, docs/tags.md): the tag and its name claim in the owner's partition, the owner's
  // tag count on its file counters; a deletion takes the tag off its files (memberships by Query).
  tagList: { items: { Query: ['USER'] } },
  tagCreate: { items: { ConditionCheckItem: ['USER'], PutItem: ['USER'], UpdateItem: ['USER'] } },
  tagPatch: { items: { PutItem: ['USER'], DeleteItem: ['USER'] } },
  tagDelete: { items: { Query: ['USER'], UpdateItem: ['USER'], DeleteItem: ['USER'] } },
  usersTags: { items: { Query: ['USER'] } },
  // Exports (issue 36): the user's export items and their running marker, in the user's partition.
  exportList: { items: { Query: ['USER'] } },
  // The export and the marker put in one transaction (the user live); failed at once (an update and
  // the marker's delete) when its request object cannot be written.
  exportStart: {
    items: { ConditionCheckItem: ['USER'], PutItem: ['USER'], UpdateItem: ['USER'], DeleteItem: ['USER'] },
  },
  exportDelete: { items: { DeleteItem: ['USER'] } },
  // The export function: its export (read, progress, outcome), the marker released, the files listed.
  exportMake: {
    items: { GetItem: ['USER'], Query: ['USER'], UpdateItem: ['USER'], DeleteItem: ['USER'] },
  },
} satisfies Record<string, TableAccess>;
