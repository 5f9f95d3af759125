import type { WebhookEvent } from '#shared/webhooks/event';
import type { EventScenario } from './cold-start.ts';

/**
 * The webhook deliverer (issue 38, docs/webhooks.md) as Lambda's asynchronous invoke starts it: an
 * upload's event for the HTTP target, none set in the bench's settings, so the cold start is the
 * bundle's load and the settings read, no call out of the machine.
 */
export function webhookEventScenarios(): EventScenario[] {
  return [
    {
      name: 'webhook event (no target set)',
      handler: 'webhooks/deliver',
      event: async (index): Promise<WebhookEvent> => ({
        id: `bench-${index}`,
        type: 'upload',
        target: 'http',
        occurredAt: new Date().toISOString(),
        user: { id: 'bench', username: 'bench', role: 'USER' },
        link: { returned: 'https://bench.example/u/a', raw: 'https://bench.example/raw/a' },
      }),
      succeeded: (result) => (result as { outcome?: string }).outcome === 'no-target',
    },
  ];
}
