import { call } from '../support/client.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The hot path of a popular link (docs/scale.md, "Short links"): a redirect costs one GetItem and at
 * most one UpdateItem of the link's counters, nothing else (the owner's view totals follow from the
 * table's stream, docs/stats.md), and the views of an unlimited link land on different counter keys.
 */

const recorder = recordSdkCalls();

async function created(headers: Record<string, string> = {}) {
  const owner = await signedInUser();
  const response = await call('POST', '/api/user/urls', {
    token: owner.token,
    json: { destination: 'https://example.com/hot' },
    headers,
  });
  return response.body as { id: string; code: string };
}

const commands = () => recorder.calls.map((recorded) => recorded.command);
/** The partition key the redirect's `index`-th call went to (1: the link's counter). */
const writtenKey = (index = 1) =>
  String((recorder.calls[index]?.input.Key as { pk?: string } | undefined)?.pk);

test('an unlimited link: one half-unit read, one one-unit write, spread over the counter shards', async () => {
  const link = await created();
  const counters = new Set<string>();
  for (let visit = 0; visit < 40; visit++) {
    recorder.reset();
    expect((await call('GET', `/go/${link.code}`)).status).toBe(302);
    expect(commands()).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    expect(recorder.calls[0]?.consumedCapacity).toMatchObject({ CapacityUnits: 0.5 });
    expect(recorder.calls[1]?.consumedCapacity).toMatchObject({ CapacityUnits: 1 });
    counters.add(writtenKey());
  }
  // Ten shards, forty visits: all but a vanishing chance (10 × 0.9^40 ≈ 0.15 %) reach at least 8.
  expect(counters.size).toBeGreaterThanOrEqual(8);
  expect([...counters].every((pk) => pk.startsWith(`LINKVIEWS#${link.id}#`))).toBe(true);
});

test('a limited link: the same one read and one write; spent, an unknown name: no more than that', async () => {
  const link = await created({ 'x-zipline-max-views': '1' });
  recorder.reset();
  expect((await call('GET', `/go/${link.code}`)).status).toBe(302);
  expect(commands()).toEqual(['GetItemCommand', 'UpdateItemCommand']);
  expect(writtenKey()).toBe(`LINKVIEWS#${link.id}#max`);
  // Spent: the conditional write is refused (the recorder sees only answered calls).
  recorder.reset();
  expect((await call('GET', `/go/${link.code}`)).status).toBe(404);
  expect(commands()).toEqual(['GetItemCommand']);
  recorder.reset();
  expect((await call('GET', '/go/nosuchlink99')).status).toBe(404);
  expect(commands()).toEqual(['GetItemCommand']);
});
