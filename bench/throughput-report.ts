import { table } from './stats.ts';
import type { ThroughputReport } from './throughput.ts';

/** The runner's rows as printed: `npm start` first (its first minute, then warm), the floors after. */
export function throughputReport(report: ThroughputReport): string {
  const { memory } = report;
  return [
    '`npm start` (fresh DATA_DIR, default logging), GET /api/user with a token; autocannon in its own process, 127.0.0.1.',
    'Then it and its floors in turn (same warm DynamoDB Local; budgets use the medians). CPU read from /proc per process.',
    '',
    table([
      [
        'server',
        'phase',
        'from start s',
        'connections',
        's',
        'requests',
        'req/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'server CPU ms/req',
        'DynamoDB Local CPU ms/req',
      ],
      ...report.runs.map((run) => [
        run.server,
        run.phase,
        run.startedAtSecond,
        run.connections,
        run.seconds,
        run.requests,
        run.requestsPerSecond,
        run.latencyP50Ms,
        run.latencyP99Ms,
        run.errors,
        run.serverCpuMsPerRequest,
        run.dynamoCpuMsPerRequest,
      ]),
    ]),
    '',
    `npm start memory, peak over the session: runner RSS ${memory.runnerPeakRssMb} MB ` +
      `(${memory.runnerReadsPeakRssMb} MB before the first upload), PSS ${memory.runnerPeakPssMb} MB; ` +
      `DynamoDB Local RSS ${memory.dynamoPeakRssMb} MB, PSS ${memory.dynamoPeakPssMb} MB. ` +
      `Log lines per request: ${report.loggedLinesPerRequest}.`,
  ].join('\n');
}
