import { call } from '../tests/support/client.ts';
import { type Scenario, scenario } from './scenario.ts';

/** Tags the listing user has: a dashboard's tag filter. */
const LISTED_TAGS = 20;

async function newTag(token: string, name: string) {
  const created = await call('POST', '/api/user/tags', { token, json: { name, color: '#336699' } });
  if (created.status !== 200) throw new Error(`fixture tag failed: ${created.text}`);
  return created.body as { id: string };
}

/**
 * The tag routes (issue 35, docs/tags.md). Creations and deletions each get a tag of their own (a
 * name is unique per user), made as untimed setup; the admin's read is of the listing user's tags.
 */
export async function tagScenarios(
  user: { token: string },
  lister: { id: string; token: string },
  admin: { token: string },
): Promise<Scenario[]> {
  const kept = await newTag(user.token, 'kept');
  for (let index = 0; index < LISTED_TAGS; index++) await newTag(lister.token, `listed ${index}`);
  const fresh = new Map<number, string>();
  const freshTag = async (index: number) => {
    fresh.set(index, (await newTag(user.token, `fresh ${index} ${Math.random()}`)).id);
    return { token: user.token };
  };
  return [
    scenario('POST /api/user/tags', 'POST', '/api/user/tags', 200, (index) => ({
      token: user.token,
      json: { name: `bench ${index} ${Math.random()}`, color: '#abc' },
    })),
    scenario('GET /api/user/tags (20 tags)', 'GET', '/api/user/tags', 200, () => ({ token: lister.token })),
    scenario('GET /api/user/tags/{id}', 'GET', '/api/user/tags/{id}', 200, () => ({ token: user.token }), {
      url: () => `/api/user/tags/${kept.id}`,
    }),
    scenario(
      'PATCH /api/user/tags/{id} (colour)',
      'PATCH',
      '/api/user/tags/{id}',
      200,
      (index) => ({ token: user.token, json: { color: index % 2 ? '#112233' : '#445566' } }),
      { url: () => `/api/user/tags/${kept.id}` },
    ),
    scenario('DELETE /api/user/tags/{id} (no files)', 'DELETE', '/api/user/tags/{id}', 200, freshTag, {
      url: (index) => `/api/user/tags/${fresh.get(index)}`,
    }),
    scenario('GET /api/users/{id}/tags', 'GET', '/api/users/{id}/tags', 200, () => ({ token: admin.token }), {
      url: () => `/api/users/${lister.id}/tags`,
    }),
  ];
}
