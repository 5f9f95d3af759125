import type { Role } from '#shared/users/model';

/** What a caller does through `/api/users` and `/api/users/{id}`. */
export type UserAction = 'list' | 'create' | 'get' | 'update' | 'delete';

export interface Party {
  id: string;
  role: Role;
}

/**
 * `not_found` rather than `forbidden` for a target the caller may not act on: the ids a caller can
 * address are exactly the ones its listing shows, so a 404 does not reveal whether a SUPERADMIN, a
 * peer or any other account exists behind an id.
 */
export type Verdict = 'allowed' | 'forbidden' | 'not_found';

/** Roles each role may act on and grant, highest first. The same set for both, by decision. */
const MANAGED_ROLES: Record<Role, readonly Role[]> = {
  SUPERADMIN: ['ADMIN', 'USER'],
  ADMIN: ['USER'],
  USER: [],
};

export function managedRoles(actorRole: Role): readonly Role[] {
  return MANAGED_ROLES[actorRole];
}

/**
 * The role rules of `/api/users` in one place:
 * - a caller who manages no role (USER) is refused every action: forbidden;
 * - a target that does not exist, is the caller, or has a role the caller does not manage
 *   (nobody manages a SUPERADMIN): not_found;
 * - a role to grant (create, update) that the caller does not manage: forbidden, so SUPERADMIN is
 *   never grantable.
 */
export function judge(
  actor: Party,
  action: UserAction,
  target?: Party | undefined,
  grantedRole?: Role | undefined,
): Verdict {
  const managed = managedRoles(actor.role);
  if (managed.length === 0) return 'forbidden';
  if (action === 'get' || action === 'update' || action === 'delete') {
    if (!target || target.id === actor.id || !managed.includes(target.role)) return 'not_found';
  }
  if (grantedRole !== undefined && !managed.includes(grantedRole)) return 'forbidden';
  return 'allowed';
}
