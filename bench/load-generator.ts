import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { round } from './stats.ts';

const autocannonCli = fileURLToPath(import.meta.resolve('autocannon/autocannon.js'));

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  /** Of those, the non-2xx answers (a redirect's 302s are what a redirect measurement expects). */
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Stop after this many requests instead of after `seconds`. */
  amount?: number;
  method?: string;
  /** A file whose bytes are every request's body. */
  bodyFile?: string;
  /** A POST of this body (the same on every request) instead of a GET. */
  post?: string;
}

/**
 * Loads one URL with the autocannon CLI in a process of its own, as a user comparing servers runs
 * it: its CPU is neither the server's nor the benchmark's (it shares the cores with both).
 */
export async function runLoad(url: string, options: LoadOptions): Promise<LoadResult> {
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    '-H',
    `${name}=${value}`,
  ]);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      autocannonCli,
      '--json',
      '-c',
      String(options.connections),
      '-d',
      String(options.seconds),
      ...(options.amount === undefined ? [] : ['-a', String(options.amount)]),
      ...(options.method === undefined ? [] : ['-m', options.method]),
      ...(options.bodyFile === undefined ? [] : ['-i', options.bodyFile]),
      ...headers,
      // `--body=`: a multipart body starts with `--`, which `-b <body>` would read as an option.
      ...(options.post === undefined ? [] : ['-m', 'POST', `--body=${options.post}`]),
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { total: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  };
  return {
    connections: options.connections,
    seconds: options.seconds,
    requests: result.requests.total,
    requestsPerSecond: round(result.requests.total / result.duration, 1),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    non2xx: result.non2xx,
  };
}
