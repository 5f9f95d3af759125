import type { ScheduledEvent } from 'aws-lambda';
import { scheduledFunctions } from '#shared/routes/background';
import { loadHandler } from './dispatch.ts';

/** The event EventBridge sends a scheduled rule's target (the handlers read none of it). */
export const scheduledEvent = (): ScheduledEvent => ({
  version: '0',
  id: 'local',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'local',
  resources: [],
  detail: {},
});

/**
 * What the stack's schedules do in AWS, sooner: every scheduled function (the expiry sweep) runs every
 * `intervalSeconds` instead of every few minutes, since DynamoDB Local expires nothing by itself. A
 * run never overlaps the previous one of the same function; a failure is logged (the function logs
 * its own line) and the next run tries again.
 */
export function startSchedules(
  intervalSeconds: number,
  log: (line: string) => void = console.error,
): () => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const timers = scheduledFunctions.map((fn) =>
    setInterval(() => {
      if (running.has(fn.handler)) return;
      const run = (async () => {
        const invoke = (await loadHandler(fn.handler)) as unknown as (
          event: ScheduledEvent,
        ) => Promise<unknown>;
        await invoke(scheduledEvent());
      })()
        .catch((error: unknown) =>
          log(`${fn.handler}: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => running.delete(fn.handler));
      running.set(fn.handler, run);
    }, intervalSeconds * 1000),
  );
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(running.values());
  };
}
