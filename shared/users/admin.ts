import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { decodeCursor, encodeCursor } from '#shared/db/cursor';
import { USERS_INDEX, USERS_PARTITION, userIndexRange } from '#shared/db/keys';
import { forbidden, notFound, ServiceError } from '#shared/errors';
import { type UserChanges, updateUser } from '#shared/users/changes';
import { createUser, type NewUser } from '#shared/users/creation';
import { type Role, roleRank, toUserResource, type UserRecord, type UserResource } from '#shared/users/model';
import { judge, managedRoles, type Party, type UserAction, type Verdict } from '#shared/users/roles';
import { fromItem, getUser } from '#shared/users/store';

/**
 * What `/api/users` and `/api/users/{id}` do on behalf of an administrator. Every step asks
 * `judge` (roles.ts) and every write is conditional on the target's role being the one judged, so a
 * concurrent role change cannot slip an action past the rules.
 */
export function enforce(verdict: Verdict): void {
  if (verdict === 'forbidden') throw forbidden('you are not allowed to do this');
  if (verdict === 'not_found') throw notFound('user not found');
}

/** The gate before anything else (a USER is refused before its input is even read). */
export function requireUserAdministrator(actor: Party): void {
  enforce(judge(actor, 'list'));
}

/** Checked before the password is hashed, so refused requests cost no bcrypt work. */
export function requireMayCreate(actor: Party, role: Role): void {
  enforce(judge(actor, 'create', undefined, role));
}

export async function createUserAs(actor: Party, input: NewUser): Promise<UserRecord> {
  requireMayCreate(actor, input.role);
  return createUser(input);
}

/** The target of a by-id action, read consistently and judged; 404 when the caller may not act on it. */
export async function userToActOn(
  actor: Party,
  userId: string,
  action: Extract<UserAction, 'get' | 'update' | 'delete'>,
  grantedRole?: Role,
): Promise<UserRecord> {
  const target = await getUser(userId, { consistent: true });
  enforce(judge(actor, action, target, grantedRole));
  const user = target as UserRecord;
  if (action === 'update' && user.deletingAt !== undefined) {
    throw new ServiceError('conflict', 'the user is being deleted');
  }
  return user;
}

export type AdminChanges = Pick<UserChanges, 'username' | 'passwordHash' | 'role' | 'quota' | 'avatar'>;

/** An admin's password reset ends every session of the user and replaces its API token. */
export async function updateUserAs(
  actor: Party,
  target: UserRecord,
  changes: AdminChanges,
): Promise<UserRecord> {
  enforce(judge(actor, 'update', target, changes.role));
  return updateUser(target, {
    ...changes,
    endAllSessions: changes.passwordHash !== undefined,
    expectedRole: target.role,
  });
}

export interface UserPage {
  users: UserResource[];
  nextCursor: string | undefined;
}

/** A page stays well inside Lambda's 6 MB response limit whatever the users' view settings hold. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * The users the caller may act on, ordered by role (highest first) and id. Their roles are one
 * contiguous band of the gsi1 sort key, so one key range is exactly this listing: every page is full
 * without filtering, and the cursor (the last returned item's key) leaves no gap or duplicate.
 * The cursor is bound to the caller's role: the listing it continues.
 */
export async function listUsersFor(
  actor: Party,
  page: { limit: number; cursor: string | undefined },
): Promise<UserPage> {
  requireUserAdministrator(actor);
  const ranks = managedRoles(actor.role).map(roleRank);
  const range = userIndexRange(Math.min(...ranks), Math.max(...ranks));
  const scope = `users:${actor.role}`;
  let startKey = page.cursor === undefined ? undefined : await decodeCursor(scope, page.cursor);
  const items: Record<string, unknown>[] = [];
  // One item more than the page tells whether another page follows; DynamoDB may stop early at 1 MB.
  do {
    const result = await documents.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: USERS_INDEX,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': USERS_PARTITION, ':from': range.from, ':to': range.to },
        Limit: page.limit + 1 - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && items.length <= page.limit);

  const users: UserResource[] = [];
  let bytes = 0;
  for (const item of items.slice(0, page.limit)) {
    const user = toUserResource(fromItem(item) as UserRecord);
    bytes += JSON.stringify(user).length;
    if (users.length > 0 && bytes > MAX_PAGE_BYTES) break;
    users.push(user);
  }
  const last = items[users.length - 1];
  const more = items.length > users.length;
  return {
    users,
    nextCursor:
      more && last
        ? await encodeCursor(scope, { pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk })
        : undefined,
  };
}
