import { useWebhookInvoker } from '#shared/webhooks/emit';
import type { WebhookEvent } from '#shared/webhooks/event';
import { loadHandler } from './dispatch.ts';

type Deliverer = (event: WebhookEvent) => Promise<unknown>;

export interface LocalWebhooks {
  /** Resolves once every event announced so far has been delivered or given up (retries included). */
  settled(): Promise<void>;
}

/**
 * What Lambda's asynchronous invocation of the webhook deliverer does in AWS, in this process: the
 * functions that announce an upload or a link hand the event over and go on at once; the deliverer's
 * module (functions/webhooks/deliver.ts) runs it meanwhile, with its own retries and backoff. An
 * invocation that still fails is logged, not invoked again (Lambda's two later retries are not
 * mimicked).
 */
export function startLocalWebhooks(log: (line: string) => void = console.error): LocalWebhooks {
  const inFlight = new Set<Promise<void>>();
  useWebhookInvoker(async (event) => {
    const run: Promise<void> = (async () => {
      const deliver = (await loadHandler('webhooks/deliver')) as unknown as Deliverer;
      await deliver(event);
    })()
      .catch((error: unknown) =>
        log(`webhooks/deliver ${event.id}: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  });
  return {
    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
