import type { KeyUnits } from './capacity.ts';
import type { SimulationRun } from './simulation.ts';

/**
 * What a simulation means at scale: each partition key's units per second if the service took
 * `targetRps` requests a second in the same mix, with the same share of them for each user (the
 * heavy users keep their share; the many others are each far smaller at scale than here, so their
 * figures are upper bounds), against DynamoDB's per-partition limits.
 */

/** DynamoDB's throughput per partition, table and each index alike (units a second). */
export const PARTITION_LIMITS = { read: 3000, write: 1000 } as const;

export interface HotKey {
  target: string;
  key: string;
  kind: 'read' | 'write';
  /** Units the run spent on it. */
  units: number;
  /** Units a second at the target rate. */
  perSecond: number;
  limit: number;
}

export interface SimulationReport {
  targetRps: number;
  requests: number;
  /** The hottest keys of the table and of each index, reads and writes, hottest first. */
  hottest: HotKey[];
  /** Keys that would pass a partition limit at the target rate. */
  overLimit: HotKey[];
  perAction: SimulationRun['perAction'];
}

/** What a report reads of a run: the realistic mix's, or a hot key's (bench/hot-keys.ts). */
export type ReportedRun = Pick<SimulationRun, 'units' | 'perAction'> & { workload: { requests: number } };

export function report(run: ReportedRun, targetRps: number, perTarget = 3): SimulationReport {
  const totals = new Map<string, KeyUnits>();
  for (const spent of run.units) {
    const id = `${spent.target}|${spent.kind}|${spent.key}`;
    const entry = totals.get(id) ?? { ...spent, units: 0 };
    entry.units += spent.units;
    totals.set(id, entry);
  }
  const scale = targetRps / run.workload.requests;
  const keys: HotKey[] = [...totals.values()]
    .map((entry) => ({
      ...entry,
      perSecond: entry.units * scale,
      limit: PARTITION_LIMITS[entry.kind],
    }))
    .sort((a, b) => b.perSecond / b.limit - a.perSecond / a.limit);
  const hottest: HotKey[] = [];
  const shown = new Map<string, number>();
  for (const key of keys) {
    const group = `${key.target}|${key.kind}`;
    if ((shown.get(group) ?? 0) >= perTarget) continue;
    shown.set(group, (shown.get(group) ?? 0) + 1);
    hottest.push(key);
  }
  return {
    targetRps,
    requests: run.workload.requests,
    hottest: hottest.sort(
      (a, b) => a.target.localeCompare(b.target, 'en', { numeric: true }) || b.perSecond - a.perSecond,
    ),
    overLimit: keys.filter((key) => key.perSecond > key.limit),
    perAction: run.perAction,
  };
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** The report as the terminal shows it. */
export function formatReport(result: SimulationReport, heavyIds: string[]): string {
  const label = (key: string) => {
    const heavy = heavyIds.findIndex((id) => key.includes(id));
    return heavy >= 0 ? `${key} (heavy user ${heavy + 1})` : key;
  };
  const lines = [
    `Hottest partition keys at ${result.targetRps.toLocaleString('en')} requests/s (${result.requests} simulated requests, scaled):`,
    '',
    '| target | kind | partition key | units/s | limit | of limit |',
    '| --- | --- | --- | ---: | ---: | ---: |',
    ...result.hottest.map(
      (key) =>
        `| ${key.target} | ${key.kind} | ${label(key.key)} | ${round(key.perSecond)} | ${key.limit} | ${round((100 * key.perSecond) / key.limit)} % |`,
    ),
    '',
    'Units per request, by action (table and indexes together):',
    '',
    '| action | requests | read units | write units |',
    '| --- | ---: | ---: | ---: |',
    ...Object.entries(result.perAction).map(
      ([action, entry]) =>
        `| ${action} | ${entry.requests} | ${round(entry.read, 2)} | ${round(entry.write, 2)} |`,
    ),
    '',
    result.overLimit.length === 0
      ? 'No partition key passes a per-partition limit at this rate.'
      : `OVER THE LIMIT at this rate:\n${result.overLimit.map((key) => `  ${key.target} ${key.kind} ${label(key.key)}: ${round(key.perSecond)} units/s (limit ${key.limit})`).join('\n')}`,
  ];
  return lines.join('\n');
}
