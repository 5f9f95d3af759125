/**
 * The table and bucket access of the routes and background functions, by name: the lines of
 * routes/table.ts and routes/background.ts point here, so a line stays one line. The table access
 * lives by area in access/; a name is unique across them (tests/unit/route-table.test.ts).
 */
import { ACCOUNT_ACCESS } from '#shared/routes/access/accounts';
import { FILE_ACCESS } from '#shared/routes/access/files';
import { IMPORT_ACCESS } from '#shared/routes/access/import';
import { INSTANCE_ACCESS } from '#shared/routes/access/instance';
import { LIBRARY_ACCESS } from '#shared/routes/access/library';
import { LINK_ACCESS } from '#shared/routes/access/links';
import type { BucketAccess } from '#shared/routes/grants';

/**
 * The table access of each route beyond reading its caller (route.ts adds that read to every
 * signed-in route's line).
 */
export const ACCESS = {
  ...ACCOUNT_ACCESS,
  ...FILE_ACCESS,
  ...LINK_ACCESS,
  ...INSTANCE_ACCESS,
  ...LIBRARY_ACCESS,
  ...IMPORT_ACCESS,
};

/** The bucket access of each route that has one. */
export const BUCKET = {
  // `{"delete": true}` lists and deletes the user's objects and thumbnails.
  usersDelete: {
    ListBucket: ['files/', 'uploads/', 'thumbnails/', 'exports/'],
    DeleteObject: ['files/', 'uploads/', 'thumbnails/', 'exports/'],
  },
  // Chunked uploads: the multipart upload is PutObject under files/; chunks too small for a part
  // wait under uploads/ (read back into the part, then deleted).
  upload: {
    PutObject: ['files/', 'uploads/'],
    GetObject: ['uploads/'],
    DeleteObject: ['files/', 'uploads/'],
  },
  // An abandoned chunked upload's staged chunks deleted (its multipart upload: the lifecycle rule).
  incompleteAbandon: { DeleteObject: ['uploads/'] },
  uploadStart: { PutObject: ['files/'], PutObjectTagging: ['files/'], DeleteObject: ['files/'] },
  uploadComplete: {
    GetObject: ['files/'],
    ListBucket: ['files/'],
    PutObjectTagging: ['files/'],
    DeleteObject: ['files/'],
  },
  // The owner's bytes: read by the function up to 4 MiB, else a presigned GET.
  read: { GetObject: ['files/'] },
  // `/raw`: the same, and a view page's stable og:image link, which for a large image is its
  // thumbnail's presigned GET.
  raw: { GetObject: ['files/', 'thumbnails/'] },
  // The owner's thumbnail of an image (the dashboard's grid).
  thumbnail: { GetObject: ['thumbnails/'] },
  // Presigned GETs for the page's media, download and og:image (the thumbnail); a ranged GET for a
  // text file's start.
  viewPage: { GetObject: ['files/', 'thumbnails/'] },
  // `/u/`: the view page's presigned links, or the file's bytes as on `/raw` (up to 4 MiB).
  link: { GetObject: ['files/', 'thumbnails/'] },
  // The bytes and their thumbnail, in one DeleteObjects; a presigned upload's object whose URL may
  // still be valid is tagged for the lifecycle rule instead (files/bucket/objects.ts `deleteFileObject`).
  delete: { DeleteObject: ['files/', 'thumbnails/'], PutObjectTagging: ['files/'] },
  // Exports (issue 36): a completed zip's presigned GET; the request object that starts the export
  // function; a zip deleted with its export.
  exportList: { GetObject: ['exports/'] },
  exportStart: { PutObject: ['export-requests/'] },
  exportDelete: { DeleteObject: ['exports/'] },
  // The export function, the only one that reads files for an export and writes exports/: each file,
  // the zip's multipart upload (aborted on failure), the request object and a deleted export's zip.
  exportMake: {
    GetObject: ['files/'],
    PutObject: ['exports/'],
    AbortMultipartUpload: ['exports/'],
    DeleteObject: ['exports/', 'export-requests/'],
  },
  // Zipline import (issue 40): the presigned upload's grants, as a file's upload start and completion.
  importFileStart: { PutObject: ['files/'], PutObjectTagging: ['files/'], DeleteObject: ['files/'] },
  importFileComplete: {
    GetObject: ['files/'],
    ListBucket: ['files/'],
    PutObjectTagging: ['files/'],
    DeleteObject: ['files/'],
  },
  // `/folder/{id}` (issue 35): presigned GETs of the previews (files, thumbnails), a ranged GET of a
  // text file's first lines.
  folderPage: { GetObject: ['files/', 'thumbnails/'] },
} satisfies Record<string, BucketAccess>;
