import { oauthConfig } from '#shared/config';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/** The providers this deployment offers, for the dashboard's buttons: `[{id, name}]` (none by default). */
export const handler = defineHandler(async () =>
  json(
    200,
    oauthConfig().providers.map(({ id, name }) => ({ id, name })),
  ),
);
