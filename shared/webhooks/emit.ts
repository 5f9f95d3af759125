import { logger } from '#shared/log/logger';
import { countMetric } from '#shared/log/metrics';
import { currentSettings } from '#shared/settings/current';
import { eventFor, type WebhookEvent, type WebhookNews, type WebhookTarget } from '#shared/webhooks/event';
import { invokeAsynchronously } from '#shared/webhooks/invoke';
import { targetUrl } from '#shared/webhooks/targets';

/** Hands an event to the deliverer, which runs later: resolves once it is queued, never on delivery. */
export type WebhookInvoker = (event: WebhookEvent) => Promise<void>;

/** The deliverer's function name, which the stack gives the functions allowed to invoke it. */
const DELIVERER = process.env.WEBHOOKS_FUNCTION_NAME;

let invoker: WebhookInvoker | undefined = DELIVERER
  ? (event) => invokeAsynchronously(DELIVERER, JSON.stringify(event))
  : undefined;

/** The local runner (and the tests) run the deliverer in their own process (infra/local/webhooks.ts). */
export function useWebhookInvoker(local: WebhookInvoker | undefined): void {
  invoker = local;
}

const TARGETS: readonly WebhookTarget[] = ['discord', 'http'];

/**
 * Tells the targets the settings name (none: nothing done, no call) that something happened: one
 * queued invocation of the deliverer per target (so a retry repeats one target's call only). The
 * caller waits for the queueing (a few milliseconds), never for a delivery; a failure to queue is
 * logged and counted, never the upload's or the link's.
 */
export async function announce(news: WebhookNews): Promise<void> {
  const failed = (error: unknown, about: Record<string, string>) => {
    countMetric('WebhookFailures');
    logger.error('webhook not queued', {
      ...about,
      problem: error instanceof Error ? error.message : String(error),
    });
  };
  let settings: Awaited<ReturnType<typeof currentSettings>>;
  try {
    settings = await currentSettings();
  } catch (error) {
    return failed(error, { type: news.type });
  }
  const targets = TARGETS.filter((target) => targetUrl(settings, news.type, target) !== null);
  await Promise.all(
    targets.map(async (target) => {
      const event = eventFor(news, target);
      try {
        if (!invoker) throw new Error('no webhook deliverer is configured (WEBHOOKS_FUNCTION_NAME)');
        await invoker(event);
      } catch (error) {
        failed(error, { eventId: event.id, type: event.type, target });
      }
    }),
  );
}
