import type { DeserializeMiddleware, HandlerExecutionContext } from '@smithy/types';
import { dynamodb, itemReader } from '#shared/db/client';

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

export interface RecordedCall<Observed = undefined> {
  command: string;
  /** The command's input as sent (document client: plain values; low-level client: attribute values). */
  input: Record<string, unknown>;
  consumedCapacity: unknown;
  /** What the observer saw right before the call and right after it (undefined without one). */
  observed?: { before: Observed; after: Observed };
  /** Time on the wire: from sending the signed HTTP request to its response (all attempts). */
  roundTripMs: number;
}

type TimedContext = { roundTripMs?: number };

/**
 * Looks at what a call touches (e.g. reads the items a write changes) right before and right after
 * it, through a client of its own; called in the call's async context.
 */
export type CallObserver<Observed> = (command: string, input: Record<string, unknown>) => Promise<Observed>;

/**
 * Records every DynamoDB command the handlers send through the shared module-scope client and item
 * reader, with the capacity DynamoDB reports (requested via ReturnConsumedCapacity on each call) and
 * its round trip. `INDEXES` adds what each write cost in every index it touched.
 */
export function recordSdkCalls<Observed = undefined>(
  detail: 'TOTAL' | 'INDEXES' = 'TOTAL',
  observer?: CallObserver<Observed>,
): {
  calls: RecordedCall<Observed>[];
  reset(): void;
} {
  const calls: RecordedCall<Observed>[] = [];
  const record = async <Output extends { ConsumedCapacity?: unknown }>(
    command: string,
    input: Record<string, unknown> & { ReturnConsumedCapacity?: string },
    send: () => Promise<{ output: Output; roundTripMs: number }>,
  ): Promise<Output> => {
    input.ReturnConsumedCapacity ??= detail;
    const before = observer && (await observer(command, input));
    const { output, roundTripMs } = await send();
    const after = observer && (await observer(command, input));
    calls.push({
      command,
      input,
      consumedCapacity: output.ConsumedCapacity,
      ...(observer ? { observed: { before: before as Observed, after: after as Observed } } : {}),
      roundTripMs,
    });
    return output;
  };
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      let result: Awaited<ReturnType<typeof next>> | undefined;
      await record(context.commandName as string, args.input as Record<string, unknown>, async () => {
        (context as TimedContext).roundTripMs = 0;
        result = await next(args);
        const output = result.output as { ConsumedCapacity?: unknown };
        return { output, roundTripMs: (context as TimedContext).roundTripMs ?? 0 };
      });
      return result as Awaited<ReturnType<typeof next>>;
    },
    { step: 'initialize', name: 'recordSdkCalls' },
  );
  dynamodb.middlewareStack.add(
    timeOnTheWire((context, ms) => {
      const timed = context as TimedContext;
      timed.roundTripMs = (timed.roundTripMs ?? 0) + ms;
    }),
    { ...ON_THE_WIRE, name: 'timeSdkRoundTrip' },
  );
  // The reader's attempts (GetItem, Query) are its exchanges on the wire (signing included, a few microseconds).
  itemReader.intercept(
    (next) => (input) =>
      record('GetItemCommand', input as unknown as Record<string, unknown>, async () => {
        const started = performance.now();
        const output = await next(input);
        return { output, roundTripMs: performance.now() - started };
      }),
  );
  itemReader.interceptQueries(
    (next) => (input) =>
      record('QueryCommand', input as unknown as Record<string, unknown>, async () => {
        const started = performance.now();
        const output = await next(input);
        return { output, roundTripMs: performance.now() - started };
      }),
  );
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
export function writeUnits(calls: readonly RecordedCall<unknown>[]): Record<string, number> {
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

/** The capacity units the recorded calls consumed, a BatchGetItem's per-table list summed too. */
export const consumedUnits = (calls: readonly RecordedCall<unknown>[]) =>
  calls.reduce((sum, { consumedCapacity }) => {
    const used = [consumedCapacity].flat() as ({ CapacityUnits?: number } | undefined)[];
    return sum + used.reduce((units, capacity) => units + (capacity?.CapacityUnits ?? 0), 0);
  }, 0);
