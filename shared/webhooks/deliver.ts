import { logger } from '#shared/log/logger';
import { countMetric } from '#shared/log/metrics';
import { currentSettings } from '#shared/settings/current';
import { ForbiddenTarget, loopbackAllowed, redactedUrl } from '#shared/webhooks/addresses';
import type { WebhookEvent } from '#shared/webhooks/event';
import { discordDelivery, httpDelivery } from '#shared/webhooks/payloads';
import { postJson } from '#shared/webhooks/post';

/**
 * The waits between a delivery's attempts within one invocation: 3 attempts over at most 5 s of
 * waiting plus 3 × 5 s of calls (WEBHOOK_TIMEOUT_MS), within the function's 30 s. An invocation that
 * still fails throws, and Lambda runs it twice more (about 1 and 3 minutes later): at most 9 calls
 * over about 4 minutes, then the event lands in the failed-events queue.
 */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 4000];

export type DeliveryOutcome = 'delivered' | 'refused' | 'no-target';

export interface DeliverOptions {
  allowLoopback?: boolean;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

/** An answer worth another try: the receiver's trouble (5xx), or its rate limit (429). */
const transient = (status: number) => status === 429 || status >= 500;

/** Thrown after the last attempt of an invocation failed for a reason another invocation may not meet. */
export class DeliveryFailed extends Error {
  override name = 'DeliveryFailed';
}

/**
 * Delivers one event to its target as the settings now name it (a target unset meanwhile: nothing
 * sent). A 2xx is delivered; a forbidden address, a redirect or another 4xx is refused for good (no
 * retry changes it); a 5xx, a 429, a timeout or a network error is tried again after each of
 * `retryDelaysMs`, then thrown as DeliveryFailed. Each outcome is logged with the URL's scheme and
 * host only (a Discord URL's path is its token) and counted (`WebhooksDelivered`, `WebhookFailures`).
 */
export async function deliverEvent(
  event: WebhookEvent,
  options: DeliverOptions = {},
): Promise<DeliveryOutcome> {
  const { allowLoopback = loopbackAllowed(), retryDelaysMs = RETRY_DELAYS_MS, timeoutMs } = options;
  const settings = await currentSettings();
  const build = () =>
    event.target === 'discord' ? discordDelivery(settings, event) : httpDelivery(settings, event);
  const first = build();
  if (!first) return 'no-target';
  const about = { eventId: event.id, type: event.type, target: event.target, url: redactedUrl(first.url) };
  let problem = '';
  for (let attempt = 1; ; attempt++) {
    // Built again for each attempt: the signature's timestamp is the time it is sent.
    const delivery = attempt === 1 ? first : (build() ?? first);
    try {
      const answer = await postJson(delivery.url, delivery.body, delivery.headers, {
        allowLoopback,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      if (answer.status >= 200 && answer.status < 300) {
        countMetric('WebhooksDelivered');
        logger.info('webhook delivered', { ...about, status: answer.status, attempt });
        return 'delivered';
      }
      problem = `answered ${answer.status}`;
      if (!transient(answer.status)) {
        const why = answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed)' : '';
        return refused(about, `${problem}${why}`, attempt);
      }
    } catch (error) {
      if (error instanceof ForbiddenTarget) return refused(about, error.message, attempt);
      problem = error instanceof Error ? error.message : String(error);
    }
    const delay = retryDelaysMs[attempt - 1];
    if (delay === undefined) {
      countMetric('WebhookFailures');
      logger.error('webhook failed', { ...about, attempt, problem });
      throw new DeliveryFailed(`webhook ${event.id} failed after ${attempt} attempts: ${problem}`);
    }
    logger.warn('webhook attempt failed, trying again', { ...about, attempt, problem, retryInMs: delay });
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function refused(about: Record<string, string>, problem: string, attempt: number): DeliveryOutcome {
  countMetric('WebhookFailures');
  logger.error('webhook refused, not retried', { ...about, attempt, problem });
  return 'refused';
}
