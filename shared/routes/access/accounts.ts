import { USERS_INDEX } from '#shared/db/keys/users';
import type { TableAccess } from '#shared/routes/grants';

/**
 * What deleting a user removes, the same whether the request finishes it or the scheduled worker
 * continues it (both run accounts/deletion.ts `finishDeletion`): the partition's items in batches,
 * the user's claims, links' names, folders' items, view counters and totals.
 */
const USER_DELETION_WRITES = {
  DeleteItem: ['USER', 'USERNAME', 'USERLIKE', 'FILENAME', 'OAUTHID', 'PASSKEY', 'DELETION', 'GO', 'FOLDER'],
  BatchWriteItem: ['USER', 'LINKVIEWS', 'FILEVIEWS', 'VIEWTOTALS'],
} satisfies TableAccess['items'];

/** Sign-in, sessions, users and their administration, providers and passkeys. */
export const ACCOUNT_ACCESS = {
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
      ...USER_DELETION_WRITES,
    },
  },
  usersDeleteContinued: {
    items: {
      GetItem: ['USER'],
      Query: ['USER', 'DELETION'],
      ...USER_DELETION_WRITES,
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
} satisfies Record<string, TableAccess>;
