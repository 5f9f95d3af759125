import { notFound } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';
import { judge } from '#shared/users/roles';
import { getUser } from '#shared/users/store';

/**
 * Whose files `GET /api/user/files?id=` lists: the caller's own for its own id, else a user the
 * caller may act on as `GET /api/users/{id}` judges it (`judge`'s `get`, read consistently as there).
 * Anyone else, and any other id a USER sends, is the 404 of an unknown user: the ids whose files a
 * caller can list are the ones its `/api/users` listing shows. (Its own module: the files listing
 * needs none of admin.ts's writes in its bundle.)
 */
export async function userWhoseFilesToList(actor: UserRecord, userId: string): Promise<UserRecord> {
  if (userId === actor.id) return actor;
  const target = await getUser(userId, { consistent: true });
  if (judge(actor, 'get', target) !== 'allowed') throw notFound('user not found');
  return target as UserRecord;
}
