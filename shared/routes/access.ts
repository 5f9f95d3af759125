/**
 * The table and bucket access of the routes and background functions, by name: the lines of
 * routes/table.ts and routes/background.ts point here, so a line stays one line.
 */
import { USERS_INDEX } from '#shared/db/keys/users';
import { SEARCH_INDEX, SORT_INDEXES } from '#shared/files/record/indexing';
import type { BucketAccess, TableAccess } from '#shared/routes/grants';

/** Every index a file listing may read: the sort orders', the ones deep pages skip over, search's. */
const FILE_INDEXES = [
  ...new Set([
    ...Object.values(SORT_INDEXES).flatMap(({ index, skipIndex }) =>
      index ? [index, skipIndex] : [skipIndex],
    ),
    SEARCH_INDEX,
  ]),
];

/**
 * The table access of each route beyond reading its caller (route.ts adds that read to every
 * signed-in route's line).
 */
export const ACCESS = {
  // One GetItem proves the table answers.
  health: { items: { GetItem: ['SETUP'] } },
  login: {
    items: { GetItem: ['USER', 'USERNAME'], UpdateItem: ['USER', 'THROTTLE'], DeleteItem: ['THROTTLE'] },
  },
  // The code a provider sign-in of an account with TOTP on owes: the user, the login's counters, the
  // code used up and the session added (UpdateItem USER).
  signInCode: { items: { GetItem: ['USER'], UpdateItem: ['USER', 'THROTTLE'], DeleteItem: ['THROTTLE'] } },
  logout: { items: { UpdateItem: ['USER'] } },
  setupCheck: { items: { GetItem: ['SETUP'] } },
  // Every new account starts with the server's default view settings (SETTINGS, issue 38).
  setup: {
    items: {
      GetItem: ['SETUP', 'SETTINGS'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE', 'SETUP'],
      ConditionCheckItem: ['USERNAME'],
      UpdateItem: ['THROTTLE'],
    },
  },
  // A rename moves the username claims; a password change is counted as a guess (THROTTLE).
  userPatch: {
    items: {
      UpdateItem: ['USER', 'THROTTLE'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE'],
    },
  },
  avatar: { items: { Query: ['USER'] } },
  tokenReset: { items: { UpdateItem: ['USER', 'THROTTLE'] } },
  // Turning TOTP on or off is one conditional update of the caller's item; a code given to turn it
  // off is counted as a login guess (THROTTLE).
  totpEnable: { items: { UpdateItem: ['USER'] } },
  totpDisable: { items: { UpdateItem: ['USER', 'THROTTLE'] } },
  // The listed users' file counters (FILESTATS, in their partitions) come in one BatchGetItem.
  usersList: { items: { BatchGetItem: ['USER'] }, indexes: [USERS_INDEX] },
  usersCreate: {
    items: {
      GetItem: ['SETTINGS'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
      DeleteItem: ['USER'],
    },
  },
  usersPatch: {
    items: {
      UpdateItem: ['USER'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE'],
    },
  },
  // The user's name claims, folders' owner and member items (FOLDER), short links' names (GO) and view counters (LINKVIEWS), popular files' view counters (FILEVIEWS), view totals (VIEWTOTALS), linked provider accounts (OAUTHID) and passkeys (PASSKEY) go with it.
  // The deletion is recorded as pending (DELETION) with its mark, and forgotten with the user.
  usersDelete: {
    items: {
      Query: ['USER'],
      UpdateItem: ['USER', 'DELETION'],
      DeleteItem: [
        'USER',
        'USERNAME',
        'USERLIKE',
        'FILENAME',
        'OAUTHID',
        'PASSKEY',
        'DELETION',
        'GO',
        'FOLDER',
      ],
      BatchWriteItem: ['USER', 'LINKVIEWS', 'FILEVIEWS', 'VIEWTOTALS'],
    },
  },
  usersDeleteContinued: {
    items: {
      GetItem: ['USER'],
      Query: ['USER', 'DELETION'],
      DeleteItem: [
        'USER',
        'USERNAME',
        'USERLIKE',
        'FILENAME',
        'OAUTHID',
        'PASSKEY',
        'DELETION',
        'GO',
        'FOLDER',
      ],
      BatchWriteItem: ['USER', 'LINKVIEWS', 'FILEVIEWS', 'VIEWTOTALS'],
    },
  },
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
  // read), and on the owner's view totals (VIEWTOTALS).
  raw: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['FILEVIEWS'],
      UpdateItem: ['USER', 'THROTTLE', 'FOLDER', 'FILEVIEWS', 'VIEWTOTALS'],
    },
  },
  // The name claim; the owner's view settings with the file (one BatchGetItem); the view count.
  viewPage: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['USER', 'FILEVIEWS'],
      UpdateItem: ['USER', 'FOLDER', 'FILEVIEWS', 'VIEWTOTALS'],
    },
  },
  // The view page's password form: the page's reads, and guesses counted per address and per name
  // as on /raw?pw=.
  viewUnlock: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['USER', 'FILEVIEWS'],
      UpdateItem: ['USER', 'THROTTLE', 'FOLDER', 'FILEVIEWS', 'VIEWTOTALS'],
    },
  },
  oembed: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'] } },
  // `/u/`: the view page's reads and count whatever the owner's setting (it decides page or file),
  // and `?pw=` or the form's guesses counted as on /raw?pw=.
  link: {
    items: {
      GetItem: ['FILENAME', 'USER'],
      BatchGetItem: ['USER', 'FILEVIEWS'],
      UpdateItem: ['USER', 'THROTTLE', 'FOLDER', 'FILEVIEWS', 'VIEWTOTALS'],
    },
  },
  // The provider account's claim and its user; the flow's state recorded once (OAUTHFLOW); a new
  // session (UpdateItem USER); a link (the claim and the user's list in one transaction), or a
  // sign-up (a user with its username claims and the provider account's).
  oauthCallback: {
    items: {
      GetItem: ['USER', 'OAUTHID', 'SETTINGS'],
      PutItem: ['OAUTHFLOW', 'OAUTHID', 'USER', 'USERNAME', 'USERLIKE'],
      UpdateItem: ['USER'],
      ConditionCheckItem: ['USERNAME'],
    },
  },
  oauthUnlink: { items: { UpdateItem: ['USER'], DeleteItem: ['OAUTHID'] } },
  // Passkeys (issue 15): a challenge handed out (WEBAUTHN), consumed by a conditional delete; a
  // credential item (PASSKEY) beside its user's list entry, in one transaction.
  passkeyOptions: { items: { PutItem: ['WEBAUTHN'] } },
  passkeyRegister: {
    items: { DeleteItem: ['WEBAUTHN'], PutItem: ['PASSKEY'], UpdateItem: ['USER'] },
  },
  passkeyRename: { items: { UpdateItem: ['USER'] } },
  passkeyDelete: { items: { UpdateItem: ['USER'], DeleteItem: ['PASSKEY'] } },
  passkeySignInOptions: { items: { PutItem: ['WEBAUTHN'] } },
  // The credential and its user; the counter and last use (one transaction); a new session.
  passkeySignIn: {
    items: { DeleteItem: ['WEBAUTHN'], GetItem: ['PASSKEY', 'USER'], UpdateItem: ['PASSKEY', 'USER'] },
  },
  // Short links (issue 34): the link in its owner's partition, its names (GO), its view counters
  // (LINKVIEWS, summed by BatchGetItem); creation raises the owner's count (LINKSTATS) under maxUrls.
  linkCreate: {
    items: {
      // The settings: whether a link is announced to webhooks (issue 38).
      GetItem: ['SETTINGS'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['USER', 'GO'],
    },
  },
  linkList: { items: { Query: ['USER'], BatchGetItem: ['LINKVIEWS'] } },
  linkGet: { items: { BatchGetItem: ['LINKVIEWS'] } },
  linkPatch: {
    items: {
      UpdateItem: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['GO'],
      DeleteItem: ['GO'],
      BatchGetItem: ['LINKVIEWS'],
    },
  },
  linkDelete: {
    items: {
      DeleteItem: ['USER', 'GO'],
      UpdateItem: ['USER'],
      BatchGetItem: ['LINKVIEWS'],
      BatchWriteItem: ['LINKVIEWS'],
    },
  },
  // A redirect: the name's route item, one view counter.
  go: { items: { GetItem: ['GO'], UpdateItem: ['LINKVIEWS', 'VIEWTOTALS'] } },
  linkPage: { items: { GetItem: ['GO'] } },
  // A password for a link: guesses counted (THROTTLE) before the route item is read.
  linkPassword: { items: { GetItem: ['GO'], UpdateItem: ['THROTTLE'] } },
  linkUnlock: { items: { GetItem: ['GO'], UpdateItem: ['THROTTLE', 'LINKVIEWS', 'VIEWTOTALS'] } },
  // Server settings (issue 38): the one SETTINGS item, read by every function applying a setting.
  settingsGet: { items: { GetItem: ['SETTINGS'] } },
  settingsPatch: { items: { UpdateItem: ['SETTINGS'] } },
  serverPublic: { items: { GetItem: ['SETUP', 'SETTINGS'] } },
  // Invites (issue 38): one partition (INVITES), an item per code; a lookup by id queries it.
  invitesList: { items: { Query: ['INVITES'] } },
  invitesCreate: { items: { GetItem: ['SETTINGS'], PutItem: ['INVITES'] } },
  invitesFind: { items: { GetItem: ['INVITES'], Query: ['INVITES'] } },
  invitesDelete: { items: { GetItem: ['INVITES'], Query: ['INVITES'], DeleteItem: ['INVITES'] } },
  // Registration: the settings, the address's counter, the invite read then used in the new user's
  // transaction (with its username claims), and the first session (UpdateItem USER).
  register: {
    items: {
      GetItem: ['SETTINGS', 'INVITES'],
      UpdateItem: ['THROTTLE', 'INVITES', 'USER'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
    },
  },
  // Instance metrics (issue 36): the days asked for, one Query of the METRICS partition.
  stats: { items: { Query: ['METRICS'] } },
  // The daily job: every user from the listing index, each one's file and link items (Query USER),
  // the links' and popular files' view counters (BatchGetItem LINKVIEWS, FILEVIEWS), the day's item written.
  statsDaily: {
    items: { Query: ['USER'], BatchGetItem: ['LINKVIEWS', 'FILEVIEWS'], UpdateItem: ['METRICS'] },
    indexes: [USERS_INDEX],
  },
  // Home and sessions (issue 36): the file counters with each type's count (one Query) and the link
  // counter; the newest files (one Query); ending sessions (the caller's user item).
  userStats: { items: { Query: ['USER'], GetItem: ['USER'], BatchGetItem: ['VIEWTOTALS'] } },
  userRecent: { items: { Query: ['USER'], BatchGetItem: ['FILEVIEWS'] } },
  sessionsEnd: { items: { UpdateItem: ['USER'] } },
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
  filesBulkDelete: {
    items: {
      GetItem: ['USER'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER', 'FILENAME', 'FOLDER'],
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
