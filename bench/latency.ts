import type { AddressInfo } from 'node:net';
import type { LambdaHandler } from '#shared/http/handler';
import { s3 } from '#shared/s3/client';
import { getUser } from '#shared/users/store';
import { loadHandler, routeEvent } from '../infra/local/dispatch.ts';
import { createLocalServer } from '../infra/local/server.ts';
import { requestEvent } from '../tests/support/client.ts';
import { ON_THE_WIRE, type RecordedCall, recordSdkCalls, timeOnTheWire } from '../tests/support/sdk-calls.ts';
import { baselineHandler } from './baseline.ts';
import { S3_PRICE_CLASS } from './prices.ts';
import type { BenchRequest, RequestLoad, Scenario } from './scenario.ts';
import { percentile, round } from './stats.ts';

export interface Distribution {
  p50: number;
  p99: number;
}

export interface DynamoWork {
  /** Commands per request, e.g. `GetItem×1`; the same for every request or listed as found. */
  operations: string;
  operationsPerRequest: number;
  readOperationsPerRequest: number;
  readUnitsPerRequest: number;
  writeUnitsPerRequest: number;
}

/** S3 requests per request (presigning a URL sends none, so it is not counted). */
export interface S3Work {
  /** Commands per request, e.g. `PutObject×1`, or `none`; listed as found when they vary. */
  operations: string;
  operationsPerRequest: number;
  /** Requests in S3's PUT/COPY/POST/LIST price class, and in its GET (and other) class. */
  putClassPerRequest: number;
  getClassPerRequest: number;
}

export interface LatencyFigures {
  scenario: string;
  handler: string;
  requests: number;
  /** Handler invocation in process (what Lambda bills), DynamoDB Local included. */
  handlerMs: Distribution;
  /** Handler time minus the DynamoDB and S3 round trips of that request. */
  overheadMs: Distribution;
  dynamoRoundTripMs: Distribution;
  s3RoundTripMs: Distribution;
  /** The same request over HTTP through the local runner (createLocalServer), client in this process. */
  runnerMs: Distribution;
  dynamo: DynamoWork;
  s3: S3Work;
}

const READ_COMMANDS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

function units(call: RecordedCall): { read: number; write: number } {
  const command = call.command.replace(/Command$/, '');
  const entries = [call.consumedCapacity ?? []].flat() as Capacity[];
  let read = 0;
  let write = 0;
  for (const entry of entries) {
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      read += entry.ReadCapacityUnits ?? 0;
      write += entry.WriteCapacityUnits ?? 0;
    } else if (READ_COMMANDS.has(command)) read += entry.CapacityUnits ?? 0;
    else write += entry.CapacityUnits ?? 0;
  }
  return { read, write };
}

const distribution = (samples: readonly number[]): Distribution => ({
  p50: round(percentile(samples, 50)),
  p99: round(percentile(samples, 99)),
});

export const recorder = recordSdkCalls();

interface S3Call {
  command: string;
  roundTripMs: number;
}

/** Records every request the shared S3 client sends, with its time on the wire. */
function recordS3Calls(): { calls: S3Call[]; reset(): void } {
  const calls: S3Call[] = [];
  s3.middlewareStack.add(
    timeOnTheWire((context, roundTripMs) =>
      calls.push({ command: context.commandName as string, roundTripMs }),
    ),
    { ...ON_THE_WIRE, name: 'recordS3Calls' },
  );
  return {
    calls,
    reset: () => {
      calls.length = 0;
    },
  };
}

const s3Recorder = recordS3Calls();

function toFetch(request: BenchRequest): RequestInit {
  const { options } = request;
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = options.token;
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  let body: string | Buffer | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.raw !== undefined) body = options.raw;
  // A redirect is the answer measured (the download link's 302), not something to follow.
  return { method: request.method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) };
}

async function timeHandler(
  handler: LambdaHandler,
  scenario: Pick<Scenario, 'name' | 'status'>,
  request: BenchRequest,
): Promise<{ ms: number; calls: RecordedCall[]; s3Calls: S3Call[] }> {
  const { event } = routeEvent(requestEvent(request.method, request.url, request.options));
  recorder.reset();
  s3Recorder.reset();
  const started = performance.now();
  const result = await handler(event);
  const ms = performance.now() - started;
  if (result.statusCode !== scenario.status)
    throw new Error(`${scenario.name} answered ${result.statusCode}: ${result.body}`);
  return { ms, calls: [...recorder.calls], s3Calls: [...s3Recorder.calls] };
}

async function timeHttp(
  base: string,
  scenario: Pick<Scenario, 'name' | 'status'>,
  request: BenchRequest,
): Promise<number> {
  const init = toFetch(request);
  const started = performance.now();
  const response = await fetch(`${base}${request.url}`, init);
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== scenario.status)
    throw new Error(`${scenario.name} over HTTP: ${response.status} ${text}`);
  return ms;
}

function listen(server: ReturnType<typeof createLocalServer>): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

const WARMUP = 20;

/** Sequential requests (one at a time, no queueing): each scenario in process, then through the runner. */
export async function measureLatency(
  scenarios: readonly Scenario[],
  counts: Record<RequestLoad, number>,
): Promise<LatencyFigures[]> {
  // The runner as `npm start` runs it, its log line built but not printed into the report.
  const server = createLocalServer({ log: () => {} });
  const base = await listen(server);
  const figures: LatencyFigures[] = [];
  try {
    for (const scenario of scenarios) {
      const count = counts[scenario.load];
      const handler = await loadHandler(scenario.handler);
      for (let index = 0; index < WARMUP; index++)
        await timeHandler(handler, scenario, await scenario.request(index));
      const handlerMs: number[] = [];
      const roundTripMs: number[] = [];
      const s3RoundTripMs: number[] = [];
      const perRequest: RecordedCall[][] = [];
      const s3PerRequest: S3Call[][] = [];
      for (let index = 0; index < count; index++) {
        const { ms, calls, s3Calls } = await timeHandler(
          handler,
          scenario,
          await scenario.request(WARMUP + index),
        );
        handlerMs.push(ms);
        roundTripMs.push(calls.reduce((sum, call) => sum + call.roundTripMs, 0));
        s3RoundTripMs.push(s3Calls.reduce((sum, call) => sum + call.roundTripMs, 0));
        perRequest.push(calls);
        s3PerRequest.push(s3Calls);
      }
      const runnerMs: number[] = [];
      for (let index = 0; index < WARMUP + count; index++) {
        const ms = await timeHttp(base, scenario, await scenario.request(WARMUP + count + index));
        if (index >= WARMUP) runnerMs.push(ms);
      }
      figures.push({
        scenario: scenario.name,
        handler: scenario.handler,
        requests: count,
        handlerMs: distribution(handlerMs),
        overheadMs: distribution(
          handlerMs.map(
            (ms, index) => ms - (roundTripMs[index] as number) - (s3RoundTripMs[index] as number),
          ),
        ),
        dynamoRoundTripMs: distribution(roundTripMs),
        s3RoundTripMs: distribution(s3RoundTripMs),
        runnerMs: distribution(runnerMs),
        dynamo: dynamoWork(perRequest),
        s3: s3Work(s3PerRequest),
      });
    }
  } finally {
    server.close();
  }
  return figures;
}

/** The commands of each request as `GetItem×1 + Query×1`, and how many requests had each shape. */
function operationShapes(perRequest: readonly { command: string }[][]): string {
  const shapes = new Map<string, number>();
  for (const calls of perRequest) {
    const counts = new Map<string, number>();
    for (const call of calls) {
      const command = call.command.replace(/Command$/, '');
      counts.set(command, (counts.get(command) ?? 0) + 1);
    }
    const shape = [...counts].map(([command, count]) => `${command}×${count}`).join(' + ') || 'none';
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  return [...shapes]
    .sort((a, b) => b[1] - a[1])
    .map(([shape, count]) => (shapes.size === 1 ? shape : `${shape} (${count})`))
    .join('; ');
}

function s3Work(perRequest: readonly S3Call[][]): S3Work {
  const commands = perRequest.flat().map((call) => call.command.replace(/Command$/, ''));
  const inClass = (priceClass: string) =>
    commands.filter((command) => {
      const found = S3_PRICE_CLASS[command];
      if (!found) throw new Error(`no S3 price class for ${command} (bench/prices.ts)`);
      return found === priceClass;
    }).length;
  const requests = perRequest.length;
  return {
    operations: operationShapes(perRequest),
    operationsPerRequest: round(commands.length / requests),
    putClassPerRequest: round(inClass('putCopyPostList') / requests),
    getClassPerRequest: round(inClass('get') / requests),
  };
}

function dynamoWork(perRequest: readonly RecordedCall[][]): DynamoWork {
  const operations = operationShapes(perRequest);
  const all = perRequest.flat();
  const unitsPerCall = all.map(units);
  const requests = perRequest.length;
  return {
    operations,
    operationsPerRequest: round(all.length / requests),
    readOperationsPerRequest: round(
      all.filter((call) => READ_COMMANDS.has(call.command.replace(/Command$/, ''))).length / requests,
    ),
    readUnitsPerRequest: round(unitsPerCall.reduce((sum, u) => sum + u.read, 0) / requests),
    writeUnitsPerRequest: round(unitsPerCall.reduce((sum, u) => sum + u.write, 0) / requests),
  };
}

/**
 * CPU time of this process per GetItem of a user item as authentication reads it (request building,
 * signing, the socket write, parsing), sequential, after a warm-up: the floor under any route that
 * reads the table, whatever the runner or handler around it does.
 */
export async function measureGetItemCpu(userId: string, count: number): Promise<number> {
  const read = () => getUser(userId);
  for (let index = 0; index < WARMUP; index++) await read();
  const before = process.cpuUsage();
  for (let index = 0; index < count; index++) await read();
  const used = process.cpuUsage(before);
  return round((used.user + used.system) / 1000 / count, 4);
}

export interface BaselineFigures {
  requests: number;
  handlerMs: Distribution;
  runnerMs: Distribution;
}

/** The constant handler over the same two paths, with the `GET /api/user` token request. */
export async function measureBaseline(template: Scenario, count: number): Promise<BaselineFigures> {
  const server = createLocalServer({ log: () => {}, dispatch: (event) => baselineHandler(event) });
  const base = await listen(server);
  const expect = { name: 'baseline', status: 200 };
  try {
    const handlerMs: number[] = [];
    const runnerMs: number[] = [];
    for (let index = 0; index < WARMUP + count; index++) {
      const { ms } = await timeHandler(baselineHandler, expect, await template.request(index));
      if (index >= WARMUP) handlerMs.push(ms);
    }
    for (let index = 0; index < WARMUP + count; index++) {
      const ms = await timeHttp(base, expect, await template.request(index));
      if (index >= WARMUP) runnerMs.push(ms);
    }
    return { requests: count, handlerMs: distribution(handlerMs), runnerMs: distribution(runnerMs) };
  } finally {
    server.close();
  }
}
