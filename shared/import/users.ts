import { LIVE_USER } from '#shared/db/expressions/conditions';
import { userKey } from '#shared/db/keys/users';
import { checkIn } from '#shared/db/table-calls';
import { transactWrite } from '#shared/db/transact';
import { ServiceError } from '#shared/errors';
import { ImportCollision } from '#shared/import/collision';
import { claimMapping, type Imported, importOnce } from '#shared/import/mapping';
import type { Quota } from '#shared/quota';
import { createUser } from '#shared/users/creation';
import { type Avatar, NO_PASSWORD, type Role, type ViewSettings } from '#shared/users/model';
import { findUserByUsername } from '#shared/users/store';

/** A Zipline user as the import takes it (its password cannot be read: see `importUser`). */
export interface ZiplineUser {
  username: string;
  role: Role;
  view?: ViewSettings | undefined;
  quota: Quota | null;
  avatar: Avatar | null;
  createdAt?: string | undefined;
  /** Map onto the account here that already has the username, instead of refusing (409). */
  adoptExisting: boolean;
}

/**
 * Zipline's SUPERADMIN is imported as ADMIN: this instance has its one SUPERADMIN (who runs the
 * import), and an import does not make owners (docs/migrate-from-zipline.md).
 */
export const importedRole = (role: Role): Role => (role === 'SUPERADMIN' ? 'ADMIN' : role);

/**
 * Imports a Zipline user once: the account (without a password: `NO_PASSWORD`, so nobody can sign
 * in as it until an administrator sets one), its username claims and avatar, and the mapping claim,
 * in one transaction. A username taken here is a 409, unless `adoptExisting` maps the Zipline user
 * onto that account (which is not changed).
 */
export async function importUser(ziplineId: string, input: ZiplineUser): Promise<Imported> {
  const role = importedRole(input.role);
  return importOnce('users', ziplineId, async () => {
    if (input.adoptExisting) {
      const existing = await findUserByUsername(input.username);
      if (existing) {
        const mapping = { id: existing.id, details: { username: existing.username, role: existing.role } };
        await transactWrite([
          checkIn(userKey(existing.id), { ConditionExpression: LIVE_USER }),
          claimMapping('users', ziplineId, mapping),
        ]);
        return mapping;
      }
    }
    const details = { username: input.username, role };
    try {
      const user = await createUser({
        username: input.username,
        passwordHash: NO_PASSWORD,
        role,
        quota: input.quota,
        avatar: input.avatar,
        ...(input.view ? { view: input.view } : {}),
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
        extra: (user) => [claimMapping('users', ziplineId, { id: user.id, details })],
      });
      return { id: user.id, details };
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'invalid') {
        throw new ImportCollision(`${error.message}: ${input.username}`, 'username', input.username);
      }
      throw error;
    }
  });
}
