import { USERS_INDEX } from '#shared/db/keys/users';
import type { TableAccess } from '#shared/routes/grants';

/** The instance: server settings, invites, registration, metrics, a user's home and sessions. */
export const INSTANCE_ACCESS = {
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
} satisfies Record<string, TableAccess>;
