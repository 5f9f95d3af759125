import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { readMetrics } from '#shared/metrics/store';
import { requireUserAdministrator } from '#shared/users/admin';
import { readStatsRange } from '#shared/validation/metrics/schemas';

/**
 * `GET /api/stats`: Zipline 4.4's array of Metrics, newest first, one per day the daily job ran
 * (docs/metrics.md); administrators only, under `/api/users`' role rule (a USER: 403).
 */
export const handler = defineHandler(async (request) => {
  const { user: actor } = await authenticate(request, { consistent: true });
  requireUserAdministrator(actor);
  const range = readStatsRange(request.query, new Date());
  return json(200, await readMetrics(range));
});
