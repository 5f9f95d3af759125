/**
 * The table and bucket access of the routes and background functions, by name: the lines of
 * routes/table.ts and routes/background.ts point here, so a line stays one line.
 */
import { USERS_INDEX } from '#shared/db/keys';
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
  setup: {
    items: {
      GetItem: ['SETUP'],
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
  // The user's name claims, short links' names (GO) and view counters (LINKVIEWS), linked provider accounts (OAUTHID) and passkeys (PASSKEY) go with it.
  // The deletion is recorded as pending (DELETION) with its mark, and forgotten with the user.
  usersDelete: {
    items: {
      Query: ['USER'],
      UpdateItem: ['USER', 'DELETION'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE', 'FILENAME', 'OAUTHID', 'PASSKEY', 'DELETION', 'GO'],
      BatchWriteItem: ['USER', 'LINKVIEWS'],
    },
  },
  usersDeleteContinued: {
    items: {
      GetItem: ['USER'],
      Query: ['USER', 'DELETION'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE', 'FILENAME', 'OAUTHID', 'PASSKEY', 'DELETION', 'GO'],
      BatchWriteItem: ['USER', 'LINKVIEWS'],
    },
  },
  // The server settings' upload policy and defaults (issue 38): the one SETTINGS item.
  upload: {
    items: {
      GetItem: ['SETTINGS'],
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FILENAME'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  // With `?id=`, an administrator's listing of another user: that user's item (GetItem USER, beyond
  // the caller's own) and that user's partition.
  filesList: {
    items: { GetItem: ['USER'], BatchGetItem: ['USER'], Query: ['USER'] },
    indexes: FILE_INDEXES,
  },
  // A file named by its public name: the name's claim, then the file.
  fileGet: { items: { GetItem: ['FILENAME'] } },
  uploadStart: {
    items: {
      GetItem: ['SETTINGS'],
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
      PutItem: ['USER', 'FILENAME'],
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
  // A rename claims the new name and releases the old in the file's transaction.
  filePatch: {
    items: {
      GetItem: ['FILENAME'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      PutItem: ['FILENAME'],
      DeleteItem: ['FILENAME'],
    },
  },
  fileDelete: {
    items: {
      GetItem: ['FILENAME'],
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER', 'FILENAME'],
    },
  },
  // Zipline's password check: `/raw?pw=`'s reads and counted guesses, no view counted.
  filePassword: { items: { GetItem: ['FILENAME', 'USER'], UpdateItem: ['THROTTLE'] } },
  // With `?pw=`: the file's hash is read first, and guesses are counted (THROTTLE).
  raw: { items: { GetItem: ['FILENAME', 'USER'], UpdateItem: ['USER', 'THROTTLE'] } },
  // The name claim; the owner's view settings with the file (one BatchGetItem); the view count.
  viewPage: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'], UpdateItem: ['USER'] } },
  // The view page's password form: the page's reads, and guesses counted per address and per name
  // as on /raw?pw=.
  viewUnlock: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'], UpdateItem: ['USER', 'THROTTLE'] } },
  oembed: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'] } },
  // `/u/`: the view page's reads and count whatever the owner's setting (it decides page or file),
  // and `?pw=` or the form's guesses counted as on /raw?pw=.
  link: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'], UpdateItem: ['USER', 'THROTTLE'] } },
  // The provider account's claim and its user; the flow's state recorded once (OAUTHFLOW); a new
  // session (UpdateItem USER); a link (the claim and the user's list in one transaction), or a
  // sign-up (a user with its username claims and the provider account's).
  oauthCallback: {
    items: {
      GetItem: ['USER', 'OAUTHID'],
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
  go: { items: { GetItem: ['GO'], UpdateItem: ['LINKVIEWS'] } },
  linkPage: { items: { GetItem: ['GO'] } },
  // A password for a link: guesses counted (THROTTLE) before the route item is read.
  linkPassword: { items: { GetItem: ['GO'], UpdateItem: ['THROTTLE'] } },
  linkUnlock: { items: { GetItem: ['GO'], UpdateItem: ['THROTTLE', 'LINKVIEWS'] } },
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
} satisfies Record<string, TableAccess>;

/** The bucket access of each route that has one. */
export const BUCKET = {
  // `{"delete": true}` lists and deletes the user's objects and thumbnails.
  usersDelete: {
    ListBucket: ['files/', 'uploads/', 'thumbnails/'],
    DeleteObject: ['files/', 'uploads/', 'thumbnails/'],
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
} satisfies Record<string, BucketAccess>;
