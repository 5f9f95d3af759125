import { SEARCH_INDEX, SORT_INDEXES } from '#shared/files/record/indexing';
import type { TableAccess } from '#shared/routes/grants';

/** Every index a file listing may read: the sort orders', the ones deep pages skip over, search's. */
const FILE_INDEXES = [
  ...new Set([
    ...Object.values(SORT_INDEXES).flatMap(({ index, skipIndex }) =>
      index ? [index, skipIndex] : [skipIndex],
    ),
    SEARCH_INDEX,
  ]),
];

/** Uploads, the file routes, and the public downloads and pages that count views. */
export const FILE_ACCESS = {
  // The server settings' upload policy and defaults (issue 38): the one SETTINGS item.
  // `x-zipline-folder`: the folder read before any byte is stored, the file's member item (FOLDER)
  // and the folder's counter (USER) in the recording transaction.
  // Without a token, into a folder open to uploads: the address counted (THROTTLE), the folder's
  // owner item (FOLDER) and its owner read.
  upload: {
    items: {
      GetItem: ['SETTINGS', 'USER', 'FOLDER'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FILENAME', 'FOLDER'],
      UpdateItem: ['USER', 'THROTTLE'],
      DeleteItem: ['USER'],
    },
  },
  // With `?id=`, an administrator's listing of another user: that user's item (GetItem USER, beyond
  // the caller's own) and that user's partition.
  filesList: {
    items: { GetItem: ['USER'], BatchGetItem: ['USER', 'FILEVIEWS'], Query: ['USER', 'FOLDER'] },
    indexes: FILE_INDEXES,
  },
  // A file named by its public name: the name's claim, then the file.
  // A popular file's views: its counters (FILEVIEWS) summed.
  fileGet: { items: { GetItem: ['FILENAME'], Query: ['USER'], BatchGetItem: ['FILEVIEWS'] } },
  uploadStart: {
    items: {
      GetItem: ['SETTINGS', 'USER'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  uploadComplete: {
    items: {
      // The settings: whether an upload is announced to webhooks (issue 38).
      GetItem: ['SETTINGS'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FILENAME', 'FOLDER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  // The caller's pending uploads (one Query of its partition).
  incompleteList: { items: { Query: ['USER'] } },
  // Each upload read, its staged chunks listed, then its item consumed with the counters (one transaction).
  incompleteAbandon: {
    items: {
      GetItem: ['USER'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  // A rename claims the new name and releases the old in the file's transaction; the file's tag
  // memberships (USER) and folder member item (FOLDER) are written in it too, and its tags read
  // (Query USER) for the answer.
  filePatch: {
    items: {
      GetItem: ['FILENAME'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['FILENAME', 'USER', 'FOLDER'],
      DeleteItem: ['FILENAME', 'USER'],
      BatchGetItem: ['FILEVIEWS'],
    },
  },
  // A popular file's view counters (FILEVIEWS) are read for the answer and deleted after it.
  fileDelete: {
    items: {
      GetItem: ['FILENAME'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER', 'FILENAME', 'FOLDER'],
      BatchGetItem: ['FILEVIEWS'],
      BatchWriteItem: ['FILEVIEWS'],
    },
  },
  // Zipline's password check: `/raw?pw=`'s reads and counted guesses, no view counted.
  filePassword: { items: { GetItem: ['FILENAME', 'USER'], UpdateItem: ['THROTTLE'] } },
  // With `?pw=`: the file's hash is read first, and guesses are counted (THROTTLE).
  // A view moves the file's views keys on its folder's member item too (FOLDER).
  // A view counts on the file's item, or a popular file's counters (FILEVIEWS, a limited one's shards
  // read); the owner's view totals follow from the table's stream (views/totals).
  raw: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['FILEVIEWS'],
      UpdateItem: ['USER', 'THROTTLE', 'FOLDER', 'FILEVIEWS'],
    },
  },
  // The name claim; the owner's view settings with the file (one BatchGetItem); the view count.
  viewPage: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['USER', 'FILEVIEWS'],
      UpdateItem: ['USER', 'FOLDER', 'FILEVIEWS'],
    },
  },
  // The view page's password form: the page's reads, and guesses counted per address and per name
  // as on /raw?pw=.
  viewUnlock: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['USER', 'FILEVIEWS'],
      UpdateItem: ['USER', 'THROTTLE', 'FOLDER', 'FILEVIEWS'],
    },
  },
  oembed: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'] } },
  // `/u/`: the view page's reads and count whatever the owner's setting (it decides page or file),
  // and `?pw=` or the form's guesses counted as on /raw?pw=.
  link: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['USER', 'FILEVIEWS'],
      UpdateItem: ['USER', 'THROTTLE', 'FOLDER', 'FILEVIEWS'],
    },
  },
} satisfies Record<string, TableAccess>;
