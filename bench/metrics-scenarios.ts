import { scheduledEvent } from '../infra/local/schedules.ts';
import type { EventScenario } from './cold-start.ts';
import { type Scenario, scenario } from './scenario.ts';

/**
 * Instance metrics (issue 36, docs/metrics.md): an administrator's `GET /api/stats` (the default
 * week), and the daily job as its schedule starts it, over the bench's fixtures.
 */
export function metricsScenarios(admin: { token: string }): Scenario[] {
  return [scenario('GET /api/stats (last 7 days)', 'GET', '/api/stats', 200, () => ({ token: admin.token }))];
}

export const dailyMetricsEvent: EventScenario = {
  name: 'scheduled daily metrics (the bench fixtures)',
  handler: 'metrics/daily',
  event: async () => scheduledEvent(),
  succeeded: (result) => typeof (result as { users?: number }).users === 'number',
};
