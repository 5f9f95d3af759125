import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: the CDK app, the bench and the tests find its files from here. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
