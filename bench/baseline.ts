import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/**
 * The floor: a handler that answers a constant through the same wrapper (request view, error
 * mapping, JSON response) with no authentication and no DynamoDB. Our figures are ratios to it.
 */
export const baselineHandler = defineHandler(async () => json(200, { ok: true }));
