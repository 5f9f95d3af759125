import { retry } from '#shared/db/contention/retry';
import { isConditionFailure } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { notFound, ServiceError } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';
import { getUser, sendUserItemUpdate, tryUpdateUserItem } from '#shared/users/store';

/** Login sessions: ids and issue times in the user item's `sessions` map, capped per user. */

/** Each round of concurrent logins lets at least one through, so this covers a burst of that many. */
const SESSION_WRITE_ATTEMPTS = 12;

/**
 * Adds a session id, dropping the oldest beyond the cap. The write is conditional on the session
 * count it was computed from, and retried on a concurrent change, so no login's session is lost.
 */
export async function addSession(
  user: UserRecord,
  sessionId: string,
  issuedAt: number,
  maxSessions: number,
): Promise<UserRecord> {
  let sessions = user.sessions;
  return retry(
    {
      attempts: SESSION_WRITE_ATTEMPTS,
      baseMs: 5,
      retryable: isConditionFailure,
      exhausted: () => new ServiceError('unavailable', 'too many concurrent logins, try again'),
    },
    async () => {
      const oldestFirst = Object.entries(sessions).sort(([, a], [, b]) => a - b);
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
      try {
        return await sendUserItemUpdate(user.id, update);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const fresh = await getUser(user.id, { consistent: true });
        if (!fresh) throw notFound('user not found');
        sessions = fresh.sessions;
        throw error;
      }
    },
  );
}

export async function removeSession(userId: string, sessionId: string): Promise<void> {
  // Logging out of a user that no longer exists has nothing left to remove.
  await tryUpdateUserItem(
    userId,
    new UpdateBuilder().remove(['sessions', sessionId]).when('attribute_exists(pk)'),
  );
}
