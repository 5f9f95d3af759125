// The local runner in a process of its own, so its CPU time and memory are measured apart from the
// load generator and DynamoDB Local. The parent sends `start`/`stop` around each load run; the reply
// to `stop` is this process's CPU time over the run and its peak RSS so far. With the argument
// `baseline`, the runner answers every request with the constant baseline handler instead.
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createLocalServer } from '../infra/local/server.ts';
import { baselineHandler } from './baseline.ts';

export type RunnerMessage =
  | { kind: 'listening'; port: number }
  | { kind: 'started' }
  | { kind: 'stopped'; cpuMicros: number; maxRssKb: number };

const send = (message: RunnerMessage) => process.send?.(message);

/**
 * Peak resident set of this process, KiB. Not `resourceUsage().maxRSS` on Linux: a forked child's
 * starts at its parent's RSS at the fork (the kernel keeps the replaced image's high-water mark), so
 * it would report the benchmark's own size; `VmHWM` is this process image's alone.
 */
function peakRssKb(): number {
  const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
  const highWater = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return highWater ? Number(highWater[1]) : process.resourceUsage().maxRSS;
}

// As `npm start` serves: the default log line per request, to stdout (here /dev/null).
const server = createLocalServer(process.argv[2] === 'baseline' ? { dispatch: baselineHandler } : {});
let cpuAtStart = process.cpuUsage();

process.on('message', (message: 'start' | 'stop') => {
  if (message === 'start') {
    cpuAtStart = process.cpuUsage();
    send({ kind: 'started' });
  } else {
    const used = process.cpuUsage(cpuAtStart);
    send({ kind: 'stopped', cpuMicros: used.user + used.system, maxRssKb: peakRssKb() });
  }
});
process.on('disconnect', () => server.close(() => process.exit(0)));

server.listen(0, '127.0.0.1', () =>
  send({ kind: 'listening', port: (server.address() as AddressInfo).port }),
);
