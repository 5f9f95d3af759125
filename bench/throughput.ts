import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { RunnerMessage } from './runner-process.ts';
import { round } from './stats.ts';

const runnerScript = fileURLToPath(new URL('./runner-process.ts', import.meta.url));
/** `npm start`'s launcher: bundles the entry and runs it in plain Node, as the runner is served. */
const launcher = fileURLToPath(new URL('../infra/local/launch.mjs', import.meta.url));

export interface ThroughputFigures {
  /** `GET /api/user`, or the constant baseline handler behind the same runner. */
  handler: 'GET /api/user' | 'baseline';
  connections: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  /** The runner process's user + system CPU time over the run, per request. */
  cpuMsPerRequest: number;
  /** Peak resident set of the runner process since it started. */
  maxRssMb: number;
}

function next<T extends RunnerMessage['kind']>(
  child: ChildProcess,
  kind: T,
): Promise<Extract<RunnerMessage, { kind: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: RunnerMessage) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<RunnerMessage, { kind: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`runner process exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export interface LoadSettings {
  durationSeconds: number;
  /**
   * Load at 10 connections before anything is counted. V8 keeps optimizing the SDK's request path
   * for the first 15 s or so of load: the runner's CPU per request at 10 connections falls from
   * about 0.7 ms in the first 5 s to its steady state, where a long-running runner spends its life.
   */
  warmupSeconds: number;
}

/**
 * Loads `GET /api/user` with a token on a runner in its own process (launched as `npm start` runs it),
 * after a warm-up, at each connection count for `durationSeconds`, 127.0.0.1 only.
 */
export async function measureThroughput(
  token: string,
  connectionCounts: readonly number[],
  { durationSeconds, warmupSeconds }: LoadSettings,
  handler: ThroughputFigures['handler'] = 'GET /api/user',
): Promise<ThroughputFigures[]> {
  const child = fork(launcher, [runnerScript, ...(handler === 'baseline' ? ['baseline'] : [])], {
    execArgv: ['--no-warnings'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env },
  });
  try {
    const { port } = await next(child, 'listening');
    const target = { url: `http://127.0.0.1:${port}/api/user`, headers: { authorization: token } };
    // JIT, connection pools and the handler module warmed before anything is counted.
    await autocannon({ ...target, connections: 10, duration: warmupSeconds });
    const figures: ThroughputFigures[] = [];
    for (const connections of connectionCounts) {
      child.send('start');
      await next(child, 'started');
      const result = await autocannon({ ...target, connections, duration: durationSeconds });
      child.send('stop');
      const usage = await next(child, 'stopped');
      const requests = result.requests.total;
      figures.push({
        handler,
        connections,
        durationSeconds,
        requests,
        requestsPerSecond: round(requests / result.duration, 1),
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
        cpuMsPerRequest: round(usage.cpuMicros / 1000 / Math.max(1, requests), 4),
        maxRssMb: round((usage.maxRssKb * 1024) / 1e6, 1),
      });
    }
    return figures;
  } finally {
    child.disconnect();
  }
}
