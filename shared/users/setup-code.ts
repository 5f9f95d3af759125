import { createHash, timingSafeEqual } from 'node:crypto';
import { forbidden } from '#shared/errors';
import { setupCode } from '#shared/secrets';

export const SETUP_CODE_REFUSED =
  'the setup code is missing or wrong: the deploy printed the command that shows it (SetupCodeCommand, docs/deploy.md)';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Refuses first-run setup without the deployment's one-time code when it has one (in AWS always):
 * a new deployment's address is no secret, and whoever called setup first would own it. Missing and
 * wrong codes get the same 403; the comparison takes the same time whatever the guess.
 */
export async function checkSetupCode(presented: string | undefined): Promise<void> {
  const expected = await setupCode();
  if (expected === undefined) return;
  if (presented === undefined || !timingSafeEqual(digest(presented.trim()), digest(expected)))
    throw forbidden(SETUP_CODE_REFUSED);
}
