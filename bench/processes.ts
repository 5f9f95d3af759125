import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * What the kernel accounts to a process, read from /proc: the benchmark measures the runner and
 * DynamoDB Local from outside, as a user comparing servers would, not from inside either.
 */
const CLOCK_TICKS_PER_SECOND =
  Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User + system CPU time the process has used since it started, ms. */
export function cpuMs(pid: number): number {
  // Fields after the command name (which may contain spaces) start at the state, field 3.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

const statusKb = (pid: number, field: string, file = 'status'): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(
    readFileSync(`/proc/${pid}/${file}`, 'utf8'),
  );
  if (!match) throw new Error(`no ${field} in /proc/${pid}/${file}`);
  return Number(match[1]);
};

/** Peak resident set since the process started (the kernel's high-water mark), MB. */
export const peakRssMb = (pid: number) => (statusKb(pid, 'VmHWM') * 1024) / 1e6;

/** Proportional set size now: resident memory with shared pages divided among their users, MB. */
export const pssMb = (pid: number) => (statusKb(pid, 'Pss', 'smaps_rollup') * 1024) / 1e6;

/** The command name of a process (`node`, `java`). */
export const commandOf = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

/** The process and all its descendants, parents first. */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // Gone meanwhile: no children.
  }
  return [pid, ...children.flatMap(processTree)];
}

/**
 * The highest PSS of each process while a measurement runs (PSS has no high-water mark of its own),
 * sampled every 250 ms.
 */
export function samplePeakPss(pids: readonly number[]): () => number[] {
  const peaks = pids.map(pssMb);
  const timer = setInterval(() => {
    pids.forEach((pid, index) => {
      peaks[index] = Math.max(peaks[index] as number, pssMb(pid));
    });
  }, 250);
  return () => {
    clearInterval(timer);
    return peaks;
  };
}
