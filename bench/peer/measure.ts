import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { type LoadOptions, type LoadResult, runLoad } from '../load-generator.ts';
import { processTree, pssMb } from '../processes.ts';
import { round } from '../stats.ts';

/**
 * One side's server as the kernel sees it: the processes whose CPU and memory are its cost (Zipline:
 * its node process and Postgres' postmaster with every backend; ours: the runner's node process and
 * DynamoDB Local's JVM under it), and the node process the "node" columns count alone.
 */
export interface Side {
  name: 'zipline' | 'ours';
  url: string;
  token: string;
  roots: number[];
  nodePid: number;
}

export interface Measurement extends LoadResult {
  side: Side['name'];
  scenario: string;
  run: number;
  /** CPU of all the side's processes (children that exited included) per request, ms. */
  cpuAllMsPerRequest: number;
  cpuNodeMsPerRequest: number;
  /** Peak of the summed PSS of the side's processes (shared pages split among their users), MB. */
  peakPssMb: number;
  /** The node process's peak RSS since it started (the kernel's high-water mark), MB. */
  nodePeakRssMb: number;
  /** CPU of everything else on the machine during the run (the load generator excluded), % of all CPUs. */
  otherCpuPercent: number;
  loadAverage: number;
}

const TICKS = 100; // USER_HZ: /proc's clock ticks per second on Linux.

/** utime + stime + the waited-for children's (fields 14–17 of /proc/PID/stat), ms; 0 once gone. */
function ownAndChildrenMs(pid: number | 'self'): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (
      ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / TICKS
    );
  } catch {
    return 0;
  }
}

const treeOf = (roots: readonly number[]) => [...new Set(roots.flatMap(processTree))];
const treeCpuMs = (roots: readonly number[]) =>
  treeOf(roots).reduce((sum, pid) => sum + ownAndChildrenMs(pid), 0);

/** Busy time of the whole machine (all CPUs), ms: user, nice, system, irq, softirq, steal. */
function machineBusyMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = (
    readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
  )
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (
    (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) / TICKS
  );
}

function nodePeakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return round(Number(match?.[1] ?? 0) / 1024, 1);
}

function samplePss(roots: readonly number[]): () => number {
  let peak = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of treeOf(roots)) {
      try {
        sum += pssMb(pid);
      } catch {
        // Exited between the listing and the read (a Postgres backend).
      }
    }
    peak = Math.max(peak, sum);
  };
  sample();
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return round(peak, 1);
  };
}

/** One load on one side, with what its processes and the rest of the machine spent meanwhile. */
export async function measure(
  side: Side,
  scenario: string,
  run: number,
  path: string,
  options: Omit<LoadOptions, 'headers'> & { headers?: Record<string, string> },
): Promise<Measurement> {
  const stopSampling = samplePss(side.roots);
  const before = {
    all: treeCpuMs(side.roots),
    node: ownAndChildrenMs(side.nodePid),
    machine: machineBusyMs(),
    mine: ownAndChildrenMs('self'),
  };
  const started = performance.now();
  const load = await runLoad(`${side.url}${path}`, {
    ...options,
    headers: { authorization: side.token, ...options.headers },
  });
  const wallMs = performance.now() - started;
  const all = treeCpuMs(side.roots) - before.all;
  const node = ownAndChildrenMs(side.nodePid) - before.node;
  // This process and the load generator (its child, counted once it has exited) are not "other work".
  const mine = ownAndChildrenMs('self') - before.mine;
  const other = machineBusyMs() - before.machine - all - mine;
  const perRequest = (ms: number) => round(ms / Math.max(1, load.requests), 3);
  return {
    side: side.name,
    scenario,
    run,
    ...load,
    cpuAllMsPerRequest: perRequest(all),
    cpuNodeMsPerRequest: perRequest(node),
    peakPssMb: stopSampling(),
    nodePeakRssMb: nodePeakRssMb(side.nodePid),
    otherCpuPercent: round((100 * Math.max(0, other)) / (wallMs * availableParallelism()), 1),
    loadAverage: round(loadavg()[0] ?? 0, 1),
  };
}
