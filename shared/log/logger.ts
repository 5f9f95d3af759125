import { Logger } from '@aws-lambda-powertools/logger';
import { sourceMappedStack } from '#shared/log/source-maps';

/**
 * The service's one logger: JSON lines (pretty with `POWERTOOLS_DEV=true`, which the local runner sets
 * on a terminal), level from `POWERTOOLS_LOG_LEVEL` (INFO unless configured). Only fields the code
 * names are logged: never a request's headers, cookies, body or query string.
 */
export const logger = new Logger({ serviceName: 'file-service' });

/**
 * The caller of each request in flight, once known: its log line names it. Keyed by the request
 * object, so concurrent requests in the local runner stay apart. Not AsyncLocalStorage: on Node 20
 * and 22 it turns on promise hooks for every promise the SDK makes, which measured 0.8 ms more per
 * `GET /api/user` and 1.8 ms more per view page (docs/performance.md).
 */
const callers = new WeakMap<object, string>();

export function noteUserId(request: object, userId: string): void {
  callers.set(request, userId);
}

export function requestUserId(request: object): string | undefined {
  return callers.get(request);
}

/** Milliseconds since `started` (a `performance.now()`), to a tenth: finer is noise in a log line. */
export const latencyMsSince = (started: number): number =>
  Math.round((performance.now() - started) * 10) / 10;

/**
 * A thrown value as the logger shows it: an Error with its name and its stack in terms of the
 * TypeScript sources (the bundle's frames mapped here, where a failure is logged), anything else as text.
 */
export function loggableError(error: unknown): Error | string {
  if (!(error instanceof Error)) return String(error);
  // Its causes too, as the logger prints them; a cause chain can loop back on itself.
  const seen = new Set<Error>();
  for (let link: unknown = error; link instanceof Error && !seen.has(link); link = link.cause) {
    seen.add(link);
    if (link.stack) link.stack = sourceMappedStack(link.stack);
  }
  return error;
}
