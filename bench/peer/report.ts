import type { Measurement } from './measure.ts';

/** Markdown tables of a peer run: every measurement, then ours/Zipline of each scenario and run. */

const cell = (value: number | string) =>
  typeof value === 'number' && !Number.isFinite(value) ? '-' : String(value);

function markdown(rows: (number | string)[][]): string {
  const text = rows.map((row) => row.map(cell));
  const widths =
    text[0]?.map((_, column) => Math.max(...text.map((row) => (row[column] ?? '').length))) ?? [];
  const line = (row: string[]) =>
    `| ${row.map((value, column) => value.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const [head, ...body] = text;
  return [
    line(head ?? []),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

export function measurementsTable(measurements: readonly Measurement[]): string {
  return markdown([
    [
      'scenario',
      'run',
      'server',
      'requests',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'CPU ms/req (all)',
      'CPU ms/req (node)',
      'peak PSS MB (all)',
      'node peak RSS MB',
      'other work % of CPUs',
      'load',
    ],
    ...measurements.map((each) => [
      each.scenario,
      each.run,
      each.side,
      each.requests,
      each.requestsPerSecond,
      each.latencyP50Ms,
      each.latencyP99Ms,
      each.errors - expectedNon2xx(each),
      each.cpuAllMsPerRequest,
      each.cpuNodeMsPerRequest,
      each.peakPssMb,
      each.nodePeakRssMb,
      each.otherCpuPercent,
      each.loadAverage,
    ]),
  ]);
}

/** A redirect's answers are all 3xx, which the load generator counts as non-2xx. */
export const expectedNon2xx = (each: Measurement) => (each.scenario.startsWith('GET /go/') ? each.non2xx : 0);

const ratio = (ours: number, zipline: number) =>
  zipline > 0 ? Number((ours / zipline).toFixed(2)) : Number.NaN;

export function ratiosTable(measurements: readonly Measurement[]): string {
  const rows: (number | string)[][] = [];
  for (const ours of measurements.filter((each) => each.side === 'ours')) {
    const zipline = measurements.find(
      (each) => each.side === 'zipline' && each.scenario === ours.scenario && each.run === ours.run,
    );
    if (!zipline) continue;
    rows.push([
      ours.scenario,
      ours.run,
      ratio(ours.requestsPerSecond, zipline.requestsPerSecond),
      ratio(ours.latencyP50Ms, zipline.latencyP50Ms),
      ratio(ours.latencyP99Ms, zipline.latencyP99Ms),
      ratio(ours.cpuAllMsPerRequest, zipline.cpuAllMsPerRequest),
      ratio(ours.cpuNodeMsPerRequest, zipline.cpuNodeMsPerRequest),
      ratio(ours.peakPssMb, zipline.peakPssMb),
    ]);
  }
  return markdown([
    ['scenario', 'run', 'req/s', 'p50', 'p99', 'CPU/req (all)', 'CPU/req (node)', 'peak PSS (all)'],
    ...rows,
  ]);
}
