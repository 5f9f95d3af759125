import { exportRequestKey } from '#shared/exports/model';
import { createExport, deleteExportItem, listExports } from '#shared/exports/store';
import { s3Event } from '../infra/local/s3.ts';
import type { EventScenario } from './cold-start.ts';
import { type Scenario, scenario } from './scenario.ts';

/** Ends the owner's exports (untimed setup), so the next POST is not refused as a second one. */
async function clearExports(userId: string) {
  for (const record of await listExports(userId)) await deleteExportItem(userId, record.id);
}

/**
 * The export routes and the export function (issue 36), for the owner of the listing's 40 files:
 * the listing, a start (the owner's earlier exports deleted first, untimed), a deletion (of an
 * export made for it through the store), and the function's run over the 40 files as S3's
 * notification of the request object starts it.
 */
export function exportScenarios(owner: { id: string; token: string }): {
  scenarios: Scenario[];
  objectEvents: EventScenario[];
} {
  const made = new Map<number, string>();
  const fresh = async (index: number) => {
    await clearExports(owner.id);
    made.set(index, (await createExport(owner.id)).id);
    return { token: owner.token };
  };
  return {
    scenarios: [
      scenario('GET /api/user/export', 'GET', '/api/user/export', 200, () => ({ token: owner.token })),
      scenario('POST /api/user/export', 'POST', '/api/user/export', 200, async () => {
        await clearExports(owner.id);
        return { token: owner.token };
      }),
      scenario('DELETE /api/user/export?id=', 'DELETE', '/api/user/export', 200, fresh, {
        url: (index) => `/api/user/export?id=${made.get(index)}`,
      }),
    ],
    objectEvents: [
      {
        name: 'S3 object created (export request, 40 files)',
        handler: 'exports/make',
        event: async (index) => {
          await fresh(index);
          return s3Event(
            process.env.BUCKET_NAME as string,
            exportRequestKey(owner.id, made.get(index) as string),
          );
        },
        succeeded: (result) =>
          (result as { outcomes?: { outcome: string }[] }).outcomes?.[0]?.outcome === 'completed',
      },
    ],
  };
}
