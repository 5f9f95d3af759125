import { Logger, type LogItem, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import { sourceMappedStack } from '#shared/log/source-maps';

/**
 * `LOG_FORMAT=line` (the local runner sets it on a terminal): one short line per log entry for a
 * person reading along, `GET /api/user 200 3.2ms user 01J… (cold start)` for a request, the level,
 * message and other fields for the rest, an error's stack below it. Anything else (and in AWS):
 * Powertools' JSON, one line per entry, which CloudWatch and log queries read.
 */
const LINES = process.env.LOG_FORMAT === 'line';

/** What every entry carries and a line leaves out (the service, the time: the terminal's now). */
const OMITTED = new Set(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id']);

export function logLine(attributes: Record<string, unknown>): string {
  const { level, message, route, status, latencyMs, userId, coldStart } = attributes;
  if (message === 'request' && typeof route === 'string') {
    return `${route} ${status} ${latencyMs}ms${userId ? ` user ${userId}` : ''}${coldStart ? ' (cold start)' : ''}`;
  }
  let stack = '';
  const fields = Object.entries(attributes).flatMap(([key, value]) => {
    if (OMITTED.has(key)) return [];
    if (value && typeof value === 'object' && 'stack' in value && typeof value.stack === 'string') {
      stack += `\n${value.stack}`;
      return [];
    }
    return [`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`];
  });
  return `${String(level)} ${String(message)}${fields.length ? ` ${fields.join(' ')}` : ''}${stack}`;
}

class ServiceLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    if (!LINES) {
      super.printLog(logLevel, log);
      return;
    }
    log.prepareForPrint();
    const line = `${logLine(log.getAttributes())}\n`;
    (logLevel >= LogLevelThreshold.WARN ? process.stderr : process.stdout).write(line);
  }
}

/**
 * The service's one logger: JSON lines, or short lines on a terminal (`LOG_FORMAT=line`, above);
 * level from `POWERTOOLS_LOG_LEVEL` (INFO unless configured). Only fields the code names are
 * logged: never a request's headers, cookies, body or query string.
 */
export const logger: Logger = new ServiceLogger({ serviceName: 'file-service' });

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
