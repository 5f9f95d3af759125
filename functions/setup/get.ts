import { setupCodeRequired } from '#shared/config/service';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { isSetupDone } from '#shared/users/creation';

/** Whether setup is still open, and whether it needs the deployment's one-time code (in AWS it does). */
export const handler = defineHandler(async () => {
  const firstSetup = !(await isSetupDone());
  return json(200, { firstSetup, codeRequired: firstSetup && setupCodeRequired() });
});
