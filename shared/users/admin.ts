import { forbidden, notFound, ServiceError } from '#shared/errors';
import { type UserChanges, updateUser } from '#shared/users/changes';
import { createUser, type NewUser } from '#shared/users/creation';
import type { Role, UserRecord } from '#shared/users/model';
import { judge, type Party, type UserAction, type Verdict } from '#shared/users/roles';
import { getUser } from '#shared/users/store';

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

/**
 * The instance's own settings and invites (issue 38) are the SUPERADMIN's: a USER or an ADMIN gets
 * 403, before its input is read.
 */
export function requireSuperAdministrator(actor: Party): void {
  if (actor.role !== 'SUPERADMIN') throw forbidden('only a super administrator may do this');
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

export type AdminChanges = Pick<
  UserChanges,
  'username' | 'passwordHash' | 'role' | 'quota' | 'avatar' | 'disableTotp'
>;

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
