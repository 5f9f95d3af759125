import { config } from '#shared/config/service';
import { invalid } from '#shared/errors';
import { countAttempt } from '#shared/throttle/counter';
import { updateUser } from '#shared/users/changes';
import type { Avatar, UserRecord } from '#shared/users/model';

/**
 * The account rules of `PATCH /api/user`, a user changing its own account (an administrator's
 * changes are admin.ts): which changes touch how the account signs in, that a rename is counted,
 * and that a new password keeps only the caller's session. The handler proves what these ask of
 * the request (a session, the current password or a code: auth/), as `PATCH /api/users/{id}` does.
 */

export const PROOF_WITHOUT_PASSWORD = 'currentPassword and code are only used together with password';

export interface OwnAccountPatch {
  username?: string | undefined;
  password?: string | undefined;
  currentPassword?: string | undefined;
  code?: string | undefined;
}

/** What of the account's sign-in a patch changes: the password, the name a password login types. */
export interface SignInChanges {
  password: boolean;
  renames: boolean;
}

/** Judges the patch before anything is checked or written; a proof without a password is a 400. */
export function signInChangesOf(user: UserRecord, patch: OwnAccountPatch): SignInChanges {
  if ((patch.currentPassword !== undefined || patch.code !== undefined) && patch.password === undefined) {
    throw invalid(PROOF_WITHOUT_PASSWORD);
  }
  return {
    password: patch.password !== undefined,
    renames: patch.username !== undefined && patch.username !== user.username,
  };
}

export interface OwnAccountChanges {
  username?: string | undefined;
  view?: Record<string, string | boolean | null> | undefined;
  avatar?: Avatar | null | undefined;
  password?: string | undefined;
}

/**
 * Applies the user's own changes. Each rename (taken or not) tells whether a name exists, so it is
 * counted per user before any write (429 past the limit); a new password (hashed by `hash`, which
 * the caller brings: hashing is auth's) ends every other session and replaces the API token.
 */
export async function updateOwnAccount(
  user: UserRecord,
  sessionId: string | undefined,
  changes: OwnAccountChanges,
  hash: (password: string) => Promise<string>,
): Promise<UserRecord> {
  if (changes.username !== undefined && changes.username !== user.username) {
    await countAttempt({ scope: 'rename-user', subject: user.id, max: config().throttle.renamesPerUser });
  }
  return updateUser(user, {
    username: changes.username,
    view: changes.view,
    avatar: changes.avatar,
    ...(changes.password === undefined
      ? {}
      : { passwordHash: await hash(changes.password), keepSessionId: sessionId }),
  });
}
