import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { isSetupDone } from '#shared/users/creation';

export const handler = defineHandler(async () => json(200, { firstSetup: !(await isSetupDone()) }));
