import {
  DynamoDBServiceException,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { dynamodb, itemReader } from '#shared/db/client';

/** A failure injected on the wire for the next `times` attempts of one DynamoDB command. */
export interface Fault {
  command: string;
  error: () => Error;
  times: number;
  /** Attempts of that command let through untouched before the fault starts. */
  skip?: number;
  /** Let the request reach DynamoDB first (it is applied), then lose the answer: a timeout. */
  afterSend?: boolean;
}

/**
 * Fault injection on the module-scope DynamoDB client and item reader (the only AWS-client mock the
 * house rules allow): on the client the middleware sits below the SDK's retry step, on the reader it
 * wraps each attempt, so both see every attempt the way a real throttled or timed-out network would,
 * and their retries react to it.
 */
export function faultInjector() {
  const faults: Fault[] = [];
  const attempts: string[] = [];
  const attempt = async <Output>(command: string, send: () => Promise<Output>): Promise<Output> => {
    attempts.push(command);
    const fault = faults.find((candidate) => candidate.command === command && candidate.times > 0);
    if (!fault) return send();
    if (fault.skip) {
      fault.skip--;
      return send();
    }
    fault.times--;
    if (fault.afterSend) await send();
    throw fault.error();
  };
  dynamodb.middlewareStack.add(
    (next, context) => (args) => attempt(context.commandName as string, () => next(args)),
    { step: 'deserialize', name: 'injectFaults' },
  );
  itemReader.intercept((next) => (input) => attempt('GetItemCommand', () => next(input)));
  itemReader.interceptQueries((next) => (input) => attempt('QueryCommand', () => next(input)));
  return {
    /** Command names of every attempt on the wire, retries included. */
    attempts,
    inject(fault: Fault) {
      faults.push(fault);
    },
    clear() {
      faults.length = 0;
      attempts.length = 0;
    },
  };
}

export const provisionedThroughputExceeded = () =>
  new ProvisionedThroughputExceededException({
    message: 'injected: rate of requests exceeds throughput',
    $metadata: {},
  });

export const throttlingException = () =>
  new DynamoDBServiceException({
    name: 'ThrottlingException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message: 'injected: rate exceeded',
  });

/** A transaction cancelled because another one was working on the same items. */
export const transactionConflict = (items: number) => () =>
  new TransactionCanceledException({
    message: 'injected: transaction cancelled',
    $metadata: {},
    CancellationReasons: Array.from({ length: items }, (_, index) =>
      index === 0 ? { Code: 'TransactionConflict', Message: 'conflict' } : { Code: 'None' },
    ),
  });

export const socketTimeout = () =>
  Object.assign(new Error('injected: socket timed out'), { name: 'TimeoutError' });

/** What a single-item write gets when a transaction holds the same item. */
export const singleItemConflict = () =>
  new TransactionConflictException({
    message: 'injected: transaction is ongoing for the item',
    $metadata: {},
  });

/**
 * Fails the `nth` call of a DynamoDB operation once, as an outage halfway through a multi-step
 * operation would; `calls()` tells how many calls of that operation were made. With `matches`, only
 * the calls whose input it accepts are counted (steps that run at once have no order of their own).
 * On the SDK client, which sends everything but single-item reads.
 */
export function failNth(operation: string, nth: number, matches: (input: unknown) => boolean = () => true) {
  let seen = 0;
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === `${operation}Command` && matches(args.input) && ++seen === nth) {
        throw Object.assign(new Error('injected outage'), { name: 'InternalServerError' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectedFault' },
  );
  return { calls: () => seen };
}
