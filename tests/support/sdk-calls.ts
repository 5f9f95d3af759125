import { dynamodbClients } from '#shared/db/client';

export interface RecordedCall {
  command: string;
  consumedCapacity: unknown;
  /** Time on the wire: from sending the signed HTTP request to its response (all attempts). */
  roundTripMs: number;
}

type TimedContext = { roundTripMs?: number };

/**
 * Records every DynamoDB command the handlers send through the shared module-scope client, with the
 * capacity DynamoDB reports (requested via ReturnConsumedCapacity on each call) and its round trip.
 * Call it before the first request: the item-read client ignores middleware added later.
 */
export function recordSdkCalls(): { calls: RecordedCall[]; reset(): void } {
  const calls: RecordedCall[] = [];
  for (const client of dynamodbClients) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity ??= 'TOTAL';
        // The item-read client shares one context between its calls (cacheMiddleware).
        (context as TimedContext).roundTripMs = 0;
        const result = await next(args);
        calls.push({
          command: context.commandName as string,
          consumedCapacity: (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity,
          roundTripMs: (context as TimedContext).roundTripMs ?? 0,
        });
        return result;
      },
      { step: 'initialize', name: 'recordSdkCalls' },
    );
    // Innermost: inside the deserializer, so only the HTTP exchange is timed, not (un)marshalling or signing.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const started = performance.now();
        try {
          return await next(args);
        } finally {
          const timed = context as TimedContext;
          timed.roundTripMs = (timed.roundTripMs ?? 0) + performance.now() - started;
        }
      },
      { step: 'deserialize', priority: 'low', name: 'timeSdkRoundTrip' },
    );
  }
  return {
    calls,
    reset: () => {
      calls.length = 0;
    },
  };
}
