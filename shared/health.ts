import { getItem } from '#shared/db/client';
import { setupKey } from '#shared/db/keys/instance';

/**
 * Proves the table answers: one eventually consistent read of a single small item (the first-run
 * marker; whether it exists does not matter). Throws what the SDK throws when the table does not.
 */
export async function pingTable(): Promise<void> {
  await getItem(setupKey, { attributes: ['pk'] });
}
