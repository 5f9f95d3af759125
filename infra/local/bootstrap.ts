import { hashPassword } from '#shared/auth/password';
import { ServiceError } from '#shared/errors';
import { createUser, isSetupDone } from '#shared/users/creation';

/** Creates the first SUPERADMIN when no user exists yet; returns it (with the password) if it did. */
export async function bootstrapAdmin(username: string, password: string) {
  if (await isSetupDone()) return undefined;
  try {
    await createUser(
      { username, passwordHash: await hashPassword(password), role: 'SUPERADMIN' },
      { firstUser: true },
    );
  } catch (error) {
    // Someone finished setup through the API in the meantime.
    if (error instanceof ServiceError && error.kind === 'forbidden') return undefined;
    throw error;
  }
  return { username, password };
}
