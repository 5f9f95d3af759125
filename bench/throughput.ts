import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../infra/project-root.ts';
import { measureListing } from './listing-throughput.ts';
import { type LoadResult, runLoad } from './load-generator.ts';
import { adminToken, type StartedService, startAsUsersDo } from './npm-start.ts';
import { cpuMs, peakRssMb, samplePeakPss } from './processes.ts';
import { round } from './stats.ts';
import { UPLOAD_REQUEST } from './upload-request.ts';

const launcher = fileURLToPath(new URL('../infra/local/launch.mjs', import.meta.url));

export type ServerKind =
  /** `npm start` serving `GET /api/user` with a token. */
  | 'npm start'
  /** A plain node:http server that only reads the same user item with the same client. */
  | 'node:http + GetItem'
  /** The runner's HTTP server and handler wrapper answering a constant. */
  | 'runner, constant handler'
  /** `npm start` answering `POST /api/upload` of one small file (issue 39). */
  | 'npm start, uploads'
  /** A plain node:http server storing each body as a file: PutObject and the upload's transaction. */
  | 'node:http + PutObject + TransactWriteItems'
  /** `npm start` serving the first page of the file list (200 files, 9 a page). */
  | 'npm start, file list'
  /** A plain node:http server making the same page's reads with the same code. */
  | 'node:http + listFiles';

export interface ThroughputFigures extends LoadResult {
  server: ServerKind;
  /** What the row is: the first minute's slices, or a measurement after the warm-up. */
  phase: 'first minute' | 'warm';
  /** Seconds since the server was started when this run began. */
  startedAtSecond: number;
  /** User + system CPU of the server process over the run, per request. */
  serverCpuMsPerRequest: number;
  /** DynamoDB Local's JVM over the same run, per request (0 for the constant handler). */
  dynamoCpuMsPerRequest: number;
}

export interface MemoryFigures {
  /** The runner's peak before the first upload: the first minute and the warm reads. */
  runnerReadsPeakRssMb: number;
  runnerPeakRssMb: number;
  runnerPeakPssMb: number;
  dynamoPeakRssMb: number;
  dynamoPeakPssMb: number;
}

export interface ThroughputReport {
  runs: ThroughputFigures[];
  /** `npm start`'s two processes over its whole session (first minute and warm runs). */
  memory: MemoryFigures;
  /** Lines `npm start` wrote to stdout against the requests it answered (one each by default). */
  loggedLinesPerRequest: number;
}

export interface LoadSettings {
  /** The first minute after start, cut into slices: how fast a fresh `npm start` becomes fast. */
  firstMinuteSlices: number;
  sliceSeconds: number;
  /** Each warm run, and the floor servers' own warm-up. */
  durationSeconds: number;
  floorWarmupSeconds: number;
  /**
   * Rounds of `npm start` and the two floors in turn at 10 connections: the load other work puts on
   * these shared cores drifts within minutes, and alternating lets each ratio compare like with like.
   */
  rounds: number;
}

interface FloorServer {
  server: ServerKind;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A bench entry bundled and run as the runner is (`launch.mjs`), once it prints its port. */
export async function startBundled(
  server: ServerKind,
  entry: string,
  env: Record<string, string>,
): Promise<FloorServer> {
  const child = spawn(process.execPath, [launcher, fileURLToPath(new URL(entry, import.meta.url))], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        // A floor that already exited (it crashed under load) would never emit 'exit' again.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One load run with the CPU each process spent on it, read from /proc before and after. */
export async function measuredRun(
  target: { server: ServerKind; url: string; pid: number; dynamoPid: number; startedAt: number },
  phase: ThroughputFigures['phase'],
  options: { connections: number; seconds: number; token?: string; upload?: true },
): Promise<ThroughputFigures> {
  const before = [cpuMs(target.pid), cpuMs(target.dynamoPid)] as const;
  const startedAtSecond = round((performance.now() - target.startedAt) / 1000, 0);
  const load = await runLoad(target.url, {
    connections: options.connections,
    seconds: options.seconds,
    headers: {
      ...(options.token ? { authorization: options.token } : {}),
      ...(options.upload ? { 'content-type': UPLOAD_REQUEST.contentType } : {}),
    },
    ...(options.upload ? { post: UPLOAD_REQUEST.body } : {}),
  });
  const perRequest = (used: number) => round(used / Math.max(1, load.requests), 3);
  return {
    server: target.server,
    phase,
    startedAtSecond,
    ...load,
    serverCpuMsPerRequest: perRequest(cpuMs(target.pid) - before[0]),
    dynamoCpuMsPerRequest:
      target.server === 'runner, constant handler' ? 0 : perRequest(cpuMs(target.dynamoPid) - before[1]),
  };
}

export async function userIdOf(service: StartedService, token: string): Promise<string> {
  const answer = await fetch(`${service.url}/api/user`, { headers: { authorization: token } });
  return ((await answer.json()) as { user: { id: string } }).user.id;
}

/**
 * `GET /api/user` through `npm start` as users run it (fresh DATA_DIR, default logging, autocannon in
 * its own process): the first minute in slices, then warm runs at each connection count; then, against
 * the same warm DynamoDB Local, the two floors at 10 connections.
 */
export async function measureThroughput(
  connectionCounts: readonly number[],
  settings: LoadSettings,
): Promise<ThroughputReport> {
  const startedAt = performance.now();
  const service = await startAsUsersDo();
  const runs: ThroughputFigures[] = [];
  try {
    const token = await adminToken(service.url);
    const peakPss = samplePeakPss([service.runnerPid, service.dynamoPid]);
    const linesBefore = service.loggedLines();
    const ours = {
      server: 'npm start' as const,
      url: `${service.url}/api/user`,
      pid: service.runnerPid,
      dynamoPid: service.dynamoPid,
      startedAt,
    };
    for (let slice = 0; slice < settings.firstMinuteSlices; slice++) {
      runs.push(
        await measuredRun(ours, 'first minute', { connections: 10, seconds: settings.sliceSeconds, token }),
      );
    }
    const floors = [
      await startBundled('node:http + GetItem', './floor-server.ts', {
        DYNAMODB_ENDPOINT: service.dynamoEndpoint,
        TABLE_NAME: 'file-service',
        FLOOR_USER_ID: await userIdOf(service, token),
      }),
      await startBundled('runner, constant handler', './baseline-runner.ts', { TABLE_NAME: 'file-service' }),
    ];
    const uploadFloor = await startBundled(
      'node:http + PutObject + TransactWriteItems',
      './upload-floor-server.ts',
      {
        DYNAMODB_ENDPOINT: service.dynamoEndpoint,
        TABLE_NAME: 'file-service',
        FLOOR_USER_ID: await userIdOf(service, token),
      },
    );
    const uploads = { ...ours, server: 'npm start, uploads' as const, url: `${service.url}/api/upload` };
    let readsPeakRssMb = 0;
    try {
      for (const floor of floors) {
        await runLoad(floor.url, { connections: 10, seconds: settings.floorWarmupSeconds });
      }
      const warm = { connections: 10, seconds: settings.durationSeconds };
      for (let round = 0; round < settings.rounds; round++) {
        runs.push(await measuredRun(ours, 'warm', { ...warm, token }));
        for (const floor of floors) {
          runs.push(await measuredRun({ ...floor, dynamoPid: service.dynamoPid, startedAt }, 'warm', warm));
        }
      }
      readsPeakRssMb = peakRssMb(service.runnerPid);
      // Uploads against their floor, in turn again (after a warm-up of each, not recorded).
      const upload = { ...warm, upload: true as const };
      const uploadFloorRun = { ...uploadFloor, dynamoPid: service.dynamoPid, startedAt };
      await measuredRun(uploads, 'warm', { ...upload, token, seconds: settings.floorWarmupSeconds });
      await measuredRun(uploadFloorRun, 'warm', { ...upload, seconds: settings.floorWarmupSeconds });
      for (let round = 0; round < settings.rounds; round++) {
        runs.push(await measuredRun(uploads, 'warm', { ...upload, token }));
        runs.push(await measuredRun(uploadFloorRun, 'warm', upload));
      }
    } finally {
      await Promise.all([...floors, uploadFloor].map((floor) => floor.stop()));
    }
    for (const connections of connectionCounts.filter((count) => count !== 10)) {
      runs.push(await measuredRun(ours, 'warm', { connections, seconds: settings.durationSeconds, token }));
    }
    runs.push(...(await measureListing(service, token, settings, startedAt)));
    const [runnerPeakPssMb, dynamoPeakPssMb] = peakPss() as [number, number];
    const answered = runs
      .filter((run) => run.server.startsWith('npm start'))
      .reduce((sum, run) => sum + run.requests, 0);
    const loggedLinesPerRequest = round((service.loggedLines() - linesBefore) / answered, 3);
    const memory = {
      runnerReadsPeakRssMb: round(readsPeakRssMb, 1),
      runnerPeakRssMb: round(peakRssMb(service.runnerPid), 1),
      runnerPeakPssMb: round(runnerPeakPssMb, 1),
      dynamoPeakRssMb: round(peakRssMb(service.dynamoPid), 1),
      dynamoPeakPssMb: round(dynamoPeakPssMb, 1),
    };
    return { runs, memory, loggedLinesPerRequest };
  } finally {
    await service.stop();
  }
}
