import { retry } from '#shared/db/contention/retry';
import { isConditionFailure } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { notFound, ServiceError } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';
import { getUser, sendUserItemUpdate, tryUpdateUserItem } from '#shared/users/store';

/**
 * Login sessions: ids and issue times in the user item's `sessions` map, capped per user, and each
 * session's client (`User-Agent`, cut to `MAX_AGENT_CHARS`) in `sessionAgents` beside it, written
 * and removed in the same updates. An item from before `sessionAgents` gets the whole map on its
 * next sign-in (its older sessions show no client).
 */

/** Each round of concurrent logins lets at least one through, so this covers a burst of that many. */
const SESSION_WRITE_ATTEMPTS = 12;

/** What of a `User-Agent` is kept: enough for any parser, and ×100 sessions stays small in the item. */
export const MAX_AGENT_CHARS = 512;

export interface NewSession {
  sessionId: string;
  issuedAt: number;
  userAgent: string | undefined;
}

/**
 * Adds a session id, dropping the oldest beyond the cap. The write is conditional on the session
 * count it was computed from, and retried on a concurrent change, so no login's session is lost.
 */
export async function addSession(
  user: UserRecord,
  session: NewSession,
  maxSessions: number,
): Promise<UserRecord> {
  const { sessionId, issuedAt } = session;
  const agent = (session.userAgent ?? '').slice(0, MAX_AGENT_CHARS);
  let current = user;
  return retry(
    {
      attempts: SESSION_WRITE_ATTEMPTS,
      baseMs: 5,
      retryable: isConditionFailure,
      exhausted: () => new ServiceError('unavailable', 'too many concurrent logins, try again'),
    },
    async () => {
      const oldestFirst = Object.entries(current.sessions).sort(([, a], [, b]) => a - b);
      const dropped = oldestFirst
        .slice(0, Math.max(0, oldestFirst.length - maxSessions + 1))
        .map(([id]) => id);
      const update = new UpdateBuilder().set(['sessions', sessionId], issuedAt);
      for (const id of dropped) update.remove(['sessions', id]);
      // The count alone is not enough: a concurrent login may have dropped the same oldest
      // session and added its own, so the sessions we drop must still be there too.
      update.when(
        `attribute_exists(pk) AND size(${update.name('sessions')}) = ${update.value(oldestFirst.length)}`,
      );
      for (const id of dropped) update.when(`attribute_exists(${update.ref(['sessions', id])})`);
      if (current.sessionAgents === undefined) {
        // A map path needs its map: the first one is written whole, once (the condition).
        update.set('sessionAgents', { [sessionId]: agent });
        update.when(`attribute_not_exists(${update.name('sessionAgents')})`);
      } else {
        update.set(['sessionAgents', sessionId], agent);
        for (const id of dropped) update.remove(['sessionAgents', id]);
        update.when(`attribute_exists(${update.name('sessionAgents')})`);
      }
      try {
        return await sendUserItemUpdate(user.id, update);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const fresh = await getUser(user.id, { consistent: true });
        if (!fresh) throw notFound('user not found');
        current = fresh;
        throw error;
      }
    },
  );
}

/**
 * Ends sessions of `user` (as read: its `sessionAgents` map decides how the agents go). Ending one
 * that is already gone changes nothing; a user that no longer exists has nothing left to remove.
 */
export async function removeSessions(
  user: UserRecord,
  sessionIds: string[],
): Promise<UserRecord | undefined> {
  if (sessionIds.length === 0) return user;
  const update = new UpdateBuilder();
  for (const id of sessionIds) {
    update.remove(['sessions', id]);
    if (user.sessionAgents !== undefined) update.remove(['sessionAgents', id]);
  }
  update.when('attribute_exists(pk)');
  if (user.sessionAgents !== undefined) update.when(`attribute_exists(${update.name('sessionAgents')})`);
  return tryUpdateUserItem(user.id, update);
}
