import { dynamodb } from '#shared/db/client';

export interface RecordedCall {
  command: string;
  consumedCapacity: unknown;
}

/**
 * Records every DynamoDB command the handlers send through the shared module-scope client, with the
 * capacity DynamoDB reports (requested via ReturnConsumedCapacity on each call).
 */
export function recordSdkCalls(): { calls: RecordedCall[]; reset(): void } {
  const calls: RecordedCall[] = [];
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      calls.push({
        command: context.commandName as string,
        consumedCapacity: (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity,
      });
      return result;
    },
    { step: 'initialize', name: 'recordSdkCalls' },
  );
  return {
    calls,
    reset: () => {
      calls.length = 0;
    },
  };
}
