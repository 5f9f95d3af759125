import { POPULAR_AFTER } from '#shared/files/serve/popular-views';
import { call } from '../tests/support/client.ts';
import { uploadFile } from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';

/**
 * The view counts' other hot paths (docs/scale.md, "Views"), beside the unlimited redirect of
 * link-scenarios.ts: a limited link's redirect (the exact `max` counter's conditional write) and a
 * popular file's download (past the views its item counts, so on its sharded counters). Fixtures
 * are untimed setup; neither runs out (a limit of a billion views).
 */
export async function viewScenarios(user: { token: string }): Promise<Scenario[]> {
  const limited = await call('POST', '/api/user/urls', {
    token: user.token,
    json: { destination: 'https://example.com/limited' },
    headers: { 'x-zipline-max-views': '1000000000' },
  });
  if (limited.status !== 200) throw new Error(`fixture link failed: ${limited.text}`);
  const popular = await uploadFile(user.token);
  for (let view = 0; view < POPULAR_AFTER; view++) await call('GET', `/raw/${popular.name}`);
  return [
    scenario('GET /go/{code} (redirect, maxViews link)', 'GET', '/go/{code}', 302, () => ({}), {
      url: () => `/go/${limited.body.code}`,
    }),
    scenario('GET /raw/{name} (popular file, 200)', 'GET', '/raw/{name}', 200, () => ({}), {
      url: () => `/raw/${encodeURIComponent(popular.name)}`,
    }),
  ];
}
