import { hashPassword } from '#shared/auth/password';
import { forEachConcurrently } from '#shared/concurrency';
import { createUser } from '#shared/users/creation';
import { call } from '../tests/support/client.ts';
import { attribute, type KeyUnits, type recordCapacity } from './capacity.ts';
import { freshSessionCookie } from './fixtures.ts';
import type { SimulationRun } from './simulation.ts';

/**
 * `npm run simulate -- --hot-link`: one short link shared widely (issue 34), every request a visitor's
 * `GET /go/{code}` from an address of its own, recorded per partition key as the realistic mix is, so
 * the report scaled to 5,000 redirects a second shows whether the link's keys hold (docs/scale.md,
 * "Short links").
 */
export async function simulateHotLink(
  requests: number,
  concurrency: number,
  recorder: ReturnType<typeof recordCapacity>,
): Promise<Pick<SimulationRun, 'units' | 'perAction'> & { workload: { requests: number } }> {
  const user = await createUser({
    username: `hot-${Date.now().toString(36)}`,
    passwordHash: await hashPassword('correct horse battery staple'),
    role: 'USER',
  });
  const cookie = await freshSessionCookie(user.id);
  const link = await call('POST', '/api/user/urls', {
    cookie,
    json: { destination: 'https://example.com/viral' },
  });
  if (link.status !== 200) throw new Error(`shortening failed: ${link.status} ${link.text}`);
  recorder.reset();
  await forEachConcurrently(
    Array.from({ length: requests }, (_, index) => index),
    concurrency,
    async (index) => {
      const sourceIp = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
      await recorder.run('redirect', async () => {
        const visit = await call('GET', `/go/${link.body.code}`, { sourceIp });
        if (visit.status !== 302) throw new Error(`redirect: ${visit.status} ${visit.text.slice(0, 200)}`);
      });
    },
  );
  const units: KeyUnits[] = recorder.calls.flatMap((recorded) => attribute(recorded));
  const read = units.filter((spent) => spent.kind === 'read').reduce((sum, spent) => sum + spent.units, 0);
  const write = units.filter((spent) => spent.kind === 'write').reduce((sum, spent) => sum + spent.units, 0);
  return {
    workload: { requests },
    units,
    perAction: { redirect: { requests, read: read / requests, write: write / requests } },
  };
}
