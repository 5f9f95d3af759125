import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The service's one logger: JSON lines (pretty with `POWERTOOLS_DEV=true`, which the local runner sets
 * on a terminal), level from `POWERTOOLS_LOG_LEVEL` (INFO unless configured). Only fields the code
 * names are logged: never a request's headers, cookies, body or query string.
 */
export const logger = new Logger({ serviceName: 'file-service' });

/** What the request log line learns while a request runs. */
interface RequestFacts {
  userId?: string;
}

const requestFacts = new AsyncLocalStorage<RequestFacts>();

/** Runs one request with its own facts (concurrent requests in the local runner stay apart). */
export function inRequestScope<T>(run: () => Promise<T>): Promise<T> {
  return requestFacts.run({}, run);
}

/** The caller, once known: the request's log line names it. */
export function noteUserId(userId: string): void {
  const facts = requestFacts.getStore();
  if (facts) facts.userId = userId;
}

export function requestUserId(): string | undefined {
  return requestFacts.getStore()?.userId;
}

/** Milliseconds since `started` (a `performance.now()`), to a tenth: finer is noise in a log line. */
export const latencyMsSince = (started: number): number =>
  Math.round((performance.now() - started) * 10) / 10;

/** A thrown value as the logger shows it: an Error with its name and stack, anything else as text. */
export const loggableError = (error: unknown): Error | string =>
  error instanceof Error ? error : String(error);
