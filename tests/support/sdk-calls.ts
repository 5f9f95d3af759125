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

interface Capacity {
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const READS = /^(Get|BatchGet|Query|Scan)/;

/**
 * Write units of the recorded calls (recorded with `INDEXES`), summed per target: `table` and each
 * index by name. Reads are left out.
 */
export function writeUnits(calls: readonly RecordedCall[]): Record<string, number> {
  const units: Record<string, number> = {};
  const add = (target: string, used: number | undefined) => {
    if (used) units[target] = (units[target] ?? 0) + used;
  };
  for (const { command, consumedCapacity } of calls) {
    if (READS.test(command)) continue;
    for (const capacity of [consumedCapacity].flat() as (Capacity | undefined)[]) {
      add('table', capacity?.Table?.CapacityUnits);
      for (const [index, used] of Object.entries(capacity?.GlobalSecondaryIndexes ?? {})) {
        add(index, used.CapacityUnits);
      }
    }
  }
  return units;
}
