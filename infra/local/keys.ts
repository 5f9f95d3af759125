import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local stand-in for the stack's Secrets Manager secret: a master key generated on first start
 * and kept in `DATA_DIR/keys.json` (mode 600), so cookies and tokens survive restarts.
 */
export function loadOrCreateLocalKeys(dataDir: string): string {
  const file = join(dataDir, 'keys.json');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const keys = JSON.stringify([{ id: '1', secret: randomBytes(48).toString('base64url') }]);
  writeFileSync(file, keys, { mode: 0o600 });
  return keys;
}
