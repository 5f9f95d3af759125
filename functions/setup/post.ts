import { hashPassword } from '#shared/auth/password';
import { config } from '#shared/config/service';
import { forbidden } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt } from '#shared/throttle/counter';
import { createUser, isSetupDone } from '#shared/users/creation';
import { toUserResource } from '#shared/users/model';
import { checkSetupCode } from '#shared/users/setup-code';
import { setupSchema } from '#shared/validation/users/account';

/**
 * Creates the first user (SUPERADMIN), given the deployment's setup code when it has one. The setup
 * marker's conditional write decides races.
 */
export const handler = defineHandler(async (request) => {
  const { username, password, code } = readJson(request, setupSchema);
  // Cheap refusal before bcrypt once setup is done; the transaction still decides a race.
  if (await isSetupDone()) throw forbidden('setup has already been done');
  await checkSetupCode(code);
  // Each attempt hashes a password: limit them per address so setup cannot be used to burn CPU.
  await countAttempt({
    scope: 'setup-address',
    subject: addressSubject(request.sourceIp),
    max: config().throttle.setupPerAddress,
  });
  const user = await createUser(
    { username, passwordHash: await hashPassword(password), role: 'SUPERADMIN' },
    { firstUser: true },
  );
  return json(200, { user: toUserResource(user) });
});
