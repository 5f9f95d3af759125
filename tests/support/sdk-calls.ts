import type { DeserializeMiddleware, HandlerExecutionContext } from '@smithy/types';
import { dynamodbClients } from '#shared/db/client';

/**
 * Times each HTTP exchange alone: added with `ON_THE_WIRE` it is the innermost middleware, inside
 * the deserializer, so signing and (un)marshalling are left out; it runs once per attempt and never
 * for a presigned URL (the presigner answers at the signing step, before it). For any AWS client.
 */
export function timeOnTheWire<Input extends object, Output extends object>(
  report: (context: HandlerExecutionContext, ms: number) => void,
): DeserializeMiddleware<Input, Output> {
  return (next, context) => async (args) => {
    const started = performance.now();
    try {
      return await next(args);
    } finally {
      report(context, performance.now() - started);
    }
  };
}

export const ON_THE_WIRE = { step: 'deserialize', priority: 'low' } as const;

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
 * Call it before the first request: the item-read client ignores middleware added later. `INDEXES`
 * adds what each write cost in every index it touched.
 */
export function recordSdkCalls(detail: 'TOTAL' | 'INDEXES' = 'TOTAL'): {
  calls: RecordedCall[];
  reset(): void;
} {
  const calls: RecordedCall[] = [];
  for (const client of dynamodbClients) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity ??= detail;
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
    client.middlewareStack.add(
      timeOnTheWire((context, ms) => {
        const timed = context as TimedContext;
        timed.roundTripMs = (timed.roundTripMs ?? 0) + ms;
      }),
      { ...ON_THE_WIRE, name: 'timeSdkRoundTrip' },
    );
  }
  return {
    calls,
    reset: () => {
      calls.length = 0;
    },
  };
}
