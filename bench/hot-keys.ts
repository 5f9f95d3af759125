import { hashPassword } from '#shared/auth/password';
import { forEachConcurrently } from '#shared/concurrency';
import { POPULAR_AFTER } from '#shared/files/serve/popular-views';
import { call } from '../tests/support/client.ts';
import { attribute, type KeyUnits, type recordCapacity } from './capacity.ts';
import { PASSWORD, signedIn, uploadFile } from './fixtures.ts';
import type { SimulationRun } from './simulation.ts';

/**
 * What `npm run simulate -- --hot-link | --hot-limited-link | --hot-file` drives (docs/scale.md,
 * "Views"): one short link shared widely (issue 34), the same with `maxViews`, or one popular file's
 * downloads, every request a visitor's from an address of its own, recorded per partition key as the
 * realistic mix is, so the report scaled to the target rate shows whether the keys hold.
 */
export type HotTarget = 'link' | 'limited-link' | 'file';

/** The rate each target must take without a throttled request. */
export const HOT_RPS: Record<HotTarget, number> = { link: 5_000, 'limited-link': 1_000, file: 5_000 };

const ACTION: Record<HotTarget, string> = { link: 'redirect', 'limited-link': 'redirect', file: 'download' };

/** The request a visitor makes, set up as untimed, unrecorded work. */
async function visitOf(target: HotTarget): Promise<{ path: string; status: number }> {
  const owner = await signedIn('USER', await hashPassword(PASSWORD));
  if (target === 'file') {
    const file = await uploadFile(owner.token);
    // A file shared widely is past the views its own item counts and the first views of each of its
    // counters, which move its views-order entry more often (files/serve/popular-views.ts).
    await forEachConcurrently(
      Array.from({ length: POPULAR_AFTER + 150 }, (_, view) => view),
      4,
      async () => {
        await call('GET', `/raw/${file.name}`);
      },
    );
    return { path: `/raw/${file.name}`, status: 200 };
  }
  const link = await call('POST', '/api/user/urls', {
    token: owner.token,
    json: { destination: 'https://example.com/viral' },
    headers: target === 'limited-link' ? { 'x-zipline-max-views': '1000000000' } : {},
  });
  if (link.status !== 200) throw new Error(`shortening failed: ${link.status} ${link.text}`);
  return { path: `/go/${link.body.code}`, status: 302 };
}

export async function simulateHot(
  target: HotTarget,
  requests: number,
  concurrency: number,
  recorder: ReturnType<typeof recordCapacity>,
): Promise<Pick<SimulationRun, 'units' | 'perAction'> & { workload: { requests: number } }> {
  const visit = await visitOf(target);
  const action = ACTION[target];
  recorder.reset();
  await forEachConcurrently(
    Array.from({ length: requests }, (_, index) => index),
    concurrency,
    async (index) => {
      const sourceIp = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
      await recorder.run(action, async () => {
        const answer = await call('GET', visit.path, { sourceIp });
        if (answer.status !== visit.status)
          throw new Error(`${action}: ${answer.status} ${answer.text.slice(0, 200)}`);
      });
    },
  );
  const units: KeyUnits[] = recorder.calls.flatMap((recorded) => attribute(recorded));
  const read = units.filter((spent) => spent.kind === 'read').reduce((sum, spent) => sum + spent.units, 0);
  const write = units.filter((spent) => spent.kind === 'write').reduce((sum, spent) => sum + spent.units, 0);
  return {
    workload: { requests },
    units,
    perAction: { [action]: { requests, read: read / requests, write: write / requests } },
  };
}
