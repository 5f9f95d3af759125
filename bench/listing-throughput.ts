import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateLocalKeys } from '../infra/local/keys.ts';
import { runLoad } from './load-generator.ts';
import type { StartedService } from './npm-start.ts';
import {
  type LoadSettings,
  measuredRun,
  startBundled,
  type ThroughputFigures,
  userIdOf,
} from './throughput.ts';

/** The listing measured: what a dashboard or a Zipline client asks first (issue 39). */
export const LISTING_PATH = '/api/user/files?page=1&perpage=9';
export const LISTING_FILES = 200;

/** Small text files uploaded one after another through the API, as a client would. */
async function upload(service: StartedService, token: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([randomBytes(64).toString('hex')], { type: 'text/plain' }),
      `bench-${index}.txt`,
    );
    const answer = await fetch(`${service.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
    });
    if (answer.status !== 200) throw new Error(`upload ${index}: ${answer.status} ${await answer.text()}`);
  }
}

/**
 * The first page of the file list with 200 files through `npm start`, and its floor (the same reads
 * through the same code behind a plain node:http server, bench/listing-floor-server.ts), in turn on
 * the same warm DynamoDB Local: the ratio is what the runner and the handler add to the reads.
 */
export async function measureListing(
  service: StartedService,
  token: string,
  settings: LoadSettings,
  startedAt: number,
): Promise<ThroughputFigures[]> {
  await upload(service, token, LISTING_FILES);
  // Keys of its own: the floor signs the next page's cursor as the handler does, and nothing verifies it.
  const keysDir = mkdtempSync(join(tmpdir(), 'file-service-bench-keys-'));
  const floor = await startBundled('node:http + listFiles', './listing-floor-server.ts', {
    DYNAMODB_ENDPOINT: service.dynamoEndpoint,
    TABLE_NAME: 'file-service',
    FLOOR_USER_ID: await userIdOf(service, token),
    SERVICE_KEYS: loadOrCreateLocalKeys(keysDir),
  }).finally(() => rmSync(keysDir, { recursive: true, force: true }));
  const runs: ThroughputFigures[] = [];
  try {
    const ours = {
      server: 'npm start, file list' as const,
      url: `${service.url}${LISTING_PATH}`,
      pid: service.runnerPid,
      dynamoPid: service.dynamoPid,
      startedAt,
    };
    const warm = { connections: 10, seconds: settings.durationSeconds };
    await runLoad(ours.url, {
      connections: 10,
      seconds: settings.floorWarmupSeconds,
      headers: { authorization: token },
    });
    await runLoad(floor.url, { connections: 10, seconds: settings.floorWarmupSeconds });
    for (let round = 0; round < settings.rounds; round++) {
      runs.push(await measuredRun(ours, 'warm', { ...warm, token }));
      runs.push(await measuredRun({ ...floor, dynamoPid: service.dynamoPid, startedAt }, 'warm', warm));
    }
  } finally {
    await floor.stop();
  }
  return runs;
}
