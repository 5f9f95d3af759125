import type { TableAccess } from '#shared/routes/grants';

/** The Zipline import (issue 40). */
export const IMPORT_ACCESS = {
  // Zipline import (issue 40): each entity written with its mapping item (ZIPLINE#<kind>) in one
  // transaction; references (owner, folder, tags) read from their mappings; the status counts them.
  importStatus: { items: { Query: ['ZIPLINE'] } },
  // The avatar's writes delete chunks a larger one would have left (DeleteItem USER, as usersCreate).
  importUser: {
    items: {
      GetItem: ['ZIPLINE', 'SETTINGS', 'USERNAME'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE', 'ZIPLINE'],
      ConditionCheckItem: ['USER', 'USERNAME'],
      DeleteItem: ['USER'],
    },
  },
  importFolder: {
    items: { GetItem: ['ZIPLINE'], ConditionCheckItem: ['USER'], PutItem: ['USER', 'FOLDER', 'ZIPLINE'] },
  },
  importTag: {
    items: {
      GetItem: ['ZIPLINE'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'ZIPLINE'],
      UpdateItem: ['USER'],
    },
  },
  importUrl: {
    items: {
      GetItem: ['ZIPLINE'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['USER', 'GO', 'LINKVIEWS', 'ZIPLINE'],
    },
  },
  // The presigned upload's start (an earlier one of the same file released first) and completion.
  importFileStart: {
    items: {
      GetItem: ['ZIPLINE', 'FILENAME'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  importFileComplete: {
    items: {
      GetItem: ['ZIPLINE', 'FILENAME'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FILENAME', 'FOLDER', 'ZIPLINE'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
} satisfies Record<string, TableAccess>;
