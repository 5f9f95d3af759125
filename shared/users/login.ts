import { verifyPassword } from '#shared/auth/password';
import { newSessionId } from '#shared/auth/session';
import { config } from '#shared/config';
import { ServiceError } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';
import { addSession, findUserByUsername } from '#shared/users/store';

export const INVALID_CREDENTIALS = 'invalid username or password';

export interface LoggedIn {
  user: UserRecord;
  sessionId: string;
  issuedAt: number;
}

/** Checks the credentials and opens a session. Unknown user and wrong password look the same. */
export async function login(username: string, password: string): Promise<LoggedIn> {
  const found = await findUserByUsername(username.trim());
  // A user being deleted cannot sign in; it costs the same bcrypt work as an unknown one.
  const user = found?.deletingAt === undefined ? found : undefined;
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid) throw new ServiceError('unauthenticated', INVALID_CREDENTIALS);
  const sessionId = newSessionId();
  const issuedAt = Date.now();
  return { user: await addSession(user, sessionId, issuedAt, config().maxSessions), sessionId, issuedAt };
}
