import { call } from '../tests/support/client.ts';
import { PASSWORD } from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';

/** A registering client each (198.18.0.0/15, the benchmarking range): 5 registrations per address. */
const client = (index: number) => `198.18.${Math.floor(index / 250) % 250}.${index % 250}`;

/**
 * Server settings, invites and registration (issue 38): a SUPERADMIN with a session reads and
 * changes the settings (a title change: nothing else moves), an ADMIN's invites; registrations by
 * an unlimited invite, each from its own address with a fresh name.
 */
export async function settingsScenarios(
  superadmin: { cookie: string },
  admin: { token: string },
): Promise<Scenario[]> {
  const created = await call('POST', '/api/auth/invites', {
    token: admin.token,
    json: { expiresAt: 'never' },
  });
  if (created.status !== 200) throw new Error(`fixture invite failed: ${created.text}`);
  const invite = created.body as { id: string; code: string };
  const fresh = new Map<number, string>();
  return [
    scenario('GET /api/server/settings', 'GET', '/api/server/settings', 200, () => ({
      cookie: superadmin.cookie,
    })),
    scenario('PATCH /api/server/settings (title)', 'PATCH', '/api/server/settings', 200, (index) => ({
      cookie: superadmin.cookie,
      json: { websiteTitle: `Bench ${index}` },
    })),
    scenario('GET /api/auth/invites', 'GET', '/api/auth/invites', 200, () => ({ token: admin.token })),
    scenario('POST /api/auth/invites', 'POST', '/api/auth/invites', 200, () => ({
      token: admin.token,
      json: { expiresAt: '1d', maxUses: 1 },
    })),
    scenario(
      'GET /api/auth/invites/{id}',
      'GET',
      '/api/auth/invites/{id}',
      200,
      () => ({ token: admin.token }),
      {
        url: () => `/api/auth/invites/${invite.id}`,
      },
    ),
    scenario(
      'DELETE /api/auth/invites/{id}',
      'DELETE',
      '/api/auth/invites/{id}',
      200,
      async (index) => {
        const made = await call('POST', '/api/auth/invites', {
          token: admin.token,
          json: { expiresAt: '1d' },
        });
        fresh.set(index, made.body.id);
        return { token: admin.token };
      },
      { url: (index) => `/api/auth/invites/${fresh.get(index)}` },
    ),
    scenario(
      'POST /api/auth/register (invite)',
      'POST',
      '/api/auth/register',
      200,
      (index) => ({
        json: {
          username: `bench-reg-${Date.now().toString(36)}-${index}`,
          password: PASSWORD,
          code: invite.code,
        },
        sourceIp: client(index),
      }),
      { load: 'password' },
    ),
  ];
}
