import { publishMetrics } from '#shared/log/metrics';
import { deliverEvent } from '#shared/webhooks/deliver';
import type { WebhookEvent } from '#shared/webhooks/event';

/**
 * Delivers one webhook event (docs/webhooks.md), invoked asynchronously by the functions that
 * announce uploads and short links: a failure after its own retries is thrown, for Lambda to retry
 * the invocation twice and then keep it in the failed-events queue.
 */
export const handler = async (event: WebhookEvent): Promise<{ outcome: string }> => {
  try {
    return { outcome: await deliverEvent(event) };
  } finally {
    publishMetrics();
  }
};
