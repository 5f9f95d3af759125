import { call } from '../tests/support/client.ts';
import { freshSessionCookie } from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';

/**
 * The home page's routes and the sessions list (issue 36): the stats of the files owner (its
 * counters and link counter), its newest files, the caller's sessions, and ending a session made as
 * untimed setup for each request (its id read through the list, as the dashboard does).
 */
export function homeScenarios(
  user: { id: string; cookie: string },
  filesOwner: { token: string },
): Scenario[] {
  const endable = async () => {
    const cookie = await freshSessionCookie(user.id);
    const listed = await call('GET', '/api/user/sessions', { cookie });
    return { cookie: user.cookie, json: { sessionId: listed.body.current.id as string } };
  };
  return [
    scenario('GET /api/user/stats', 'GET', '/api/user/stats', 200, () => ({ token: filesOwner.token })),
    scenario('GET /api/user/recent (take 3)', 'GET', '/api/user/recent', 200, () => ({
      token: filesOwner.token,
    })),
    scenario('GET /api/user/sessions', 'GET', '/api/user/sessions', 200, () => ({ cookie: user.cookie })),
    scenario('DELETE /api/user/sessions (one)', 'DELETE', '/api/user/sessions', 200, endable),
  ];
}
