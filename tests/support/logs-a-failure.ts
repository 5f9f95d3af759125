// An entry that fails in its own code two calls deep and logs the failure as every function does:
// tests/unit/source-maps.test.ts bundles it as a deploy bundles a function and runs it in plain Node.
import { loggableError, logger } from '#shared/log/logger';

function readSettings(): never {
  throw new Error('settings are missing'); // the throw
}

function startService(): void {
  readSettings(); // the call
}

try {
  startService(); // the entry
} catch (error) {
  logger.error('unexpected error', { error: loggableError(error) });
}
