import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DynamoDbLocal } from './local/dynamodb.ts';

/**
 * `npm run reset-password -- <username>`: gives a user (the first administrator whose printed
 * password was lost, or anyone) a new random password, printed once, and ends its sessions and API
 * token, as a password change does. Where the user lives:
 *
 * - `--table <TableName>`: a deployed table (the stack output), with the AWS credentials and region
 *   of the environment, as `npm run upgrade:data` uses them;
 * - else `DYNAMODB_ENDPOINT` when set: the DynamoDB Local of a running `npm start` (it prints the
 *   endpoint), table `TABLE_NAME` or `file-service`;
 * - else the local runner's data in `DATA_DIR` (`./.data`), with `npm start` stopped: a DynamoDB
 *   Local of its own is started on those files for the change.
 *
 * `--disable-totp` also turns two-factor sign-in off (the authenticator lost with the password).
 * `NEW_PASSWORD` sets the password instead of a random one (8–72 bytes, as the API requires).
 */
const USAGE =
  'usage: npm run reset-password -- <username> [--table <TableName>] [--disable-totp] (docs/operations.md)';

// As in npm start (infra/local/launch.mjs): on Node 20 the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { table: { type: 'string' }, 'disable-totp': { type: 'boolean' } },
});
const username = positionals[0];
if (!username || positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}
const password = process.env.NEW_PASSWORD || randomBytes(12).toString('base64url');
const bytes = Buffer.byteLength(password);
if (bytes < 8 || bytes > 72) {
  console.error('NEW_PASSWORD must be 8 to 72 bytes');
  process.exit(2);
}

let local: DynamoDbLocal | undefined;
if (values.table) {
  process.env.TABLE_NAME = values.table;
  delete process.env.DYNAMODB_ENDPOINT;
} else {
  process.env.TABLE_NAME ??= 'file-service';
  if (!process.env.DYNAMODB_ENDPOINT) {
    const { startDynamoDbLocal } = await import('./local/dynamodb.ts');
    local = await startDynamoDbLocal({ dataDir: resolve(process.env.DATA_DIR ?? '.data', 'dynamodb') });
    process.env.DYNAMODB_ENDPOINT = local.endpoint;
  }
}

try {
  // The store reads its configuration at import: only now that the table is known.
  const { findUserByUsername } = await import('#shared/users/store');
  const { updateUser } = await import('#shared/users/changes');
  const { hashPassword } = await import('#shared/auth/password');
  const user = await findUserByUsername(username);
  if (!user) {
    console.error(`no user named "${username}" in table ${process.env.TABLE_NAME}`);
    process.exitCode = 1;
  } else {
    const disableTotp = values['disable-totp'] === true;
    await updateUser(user, { passwordHash: await hashPassword(password), disableTotp });
    console.log(
      `password of ${user.role} "${user.username}" reset${process.env.NEW_PASSWORD ? '' : ` to ${password}`}` +
        ' (its sessions and API token were ended)',
    );
    if (user.totpSecret && !disableTotp) {
      console.log('two-factor sign-in stays on: add --disable-totp if the authenticator is lost too');
    }
  }
} finally {
  await local?.stop();
}
