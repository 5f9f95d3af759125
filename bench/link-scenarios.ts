import { call } from '../tests/support/client.ts';
import { PASSWORD } from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';
import { viewerAddress } from './services.ts';

/** Links the listed user has: a dashboard's first screen of them. */
const LISTED_LINKS = 20;

async function shorten(token: string, headers: Record<string, string> = {}) {
  const created = await call('POST', '/api/user/urls', {
    token,
    json: { destination: 'https://example.com/benchmarked/page' },
    headers,
  });
  if (created.status !== 200) throw new Error(`fixture link failed: ${created.text}`);
  return created.body as { id: string; code: string };
}

/**
 * The short-link routes (issue 34). The redirect is the hot path (docs/scale.md): an unlimited link,
 * so every request is a view counted on one of its shards. Edits and deletions each get a link of
 * their own, made as untimed setup; the password checks come from a viewer address each, as the
 * view page's form is measured.
 */
export async function linkScenarios(user: { token: string }, lister: { token: string }): Promise<Scenario[]> {
  const hot = await shorten(user.token);
  const locked = await shorten(user.token, { 'x-zipline-password': PASSWORD });
  for (let index = 0; index < LISTED_LINKS; index++) await shorten(lister.token);
  const fresh = new Map<number, string>();
  const freshLink = async (index: number) => {
    const link = await shorten(user.token);
    fresh.set(index, link.id);
    return { token: user.token };
  };
  const form = (index: number) => ({
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: new URLSearchParams({ password: PASSWORD }).toString(),
    sourceIp: viewerAddress('links', index),
  });
  return [
    scenario('POST /api/user/urls', 'POST', '/api/user/urls', 200, () => ({
      token: user.token,
      json: { destination: 'https://example.com/a/longer/page?with=query' },
    })),
    scenario('GET /api/user/urls (20 links)', 'GET', '/api/user/urls', 200, () => ({ token: lister.token })),
    scenario('GET /api/user/urls/{id}', 'GET', '/api/user/urls/{id}', 200, () => ({ token: user.token }), {
      url: () => `/api/user/urls/${hot.id}`,
    }),
    scenario(
      'PATCH /api/user/urls/{id} (destination)',
      'PATCH',
      '/api/user/urls/{id}',
      200,
      (index) => ({ token: user.token, json: { destination: `https://example.com/moved/${index}` } }),
      { url: () => `/api/user/urls/${hot.id}` },
    ),
    scenario('DELETE /api/user/urls/{id}', 'DELETE', '/api/user/urls/{id}', 200, freshLink, {
      url: (index) => `/api/user/urls/${fresh.get(index)}`,
    }),
    scenario(
      'POST /api/user/urls/{id}/password',
      'POST',
      '/api/user/urls/{id}/password',
      200,
      (index) => ({ json: { password: PASSWORD }, sourceIp: viewerAddress('links', index) }),
      { url: () => `/api/user/urls/${locked.id}/password`, load: 'password' },
    ),
    scenario('GET /go/{code} (redirect)', 'GET', '/go/{code}', 302, () => ({}), {
      url: () => `/go/${hot.code}`,
    }),
    scenario('GET /view/url/{id} (password form)', 'GET', '/view/url/{id}', 200, () => ({}), {
      url: () => `/view/url/${locked.id}`,
    }),
    scenario('POST /view/url/{id} (right password)', 'POST', '/view/url/{id}', 302, form, {
      url: () => `/view/url/${locked.id}`,
      load: 'password',
    }),
  ];
}
