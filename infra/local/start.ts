import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { ensureTable, localClient, startDynamoDbLocal } from './dynamodb.ts';
import { loadOrCreateLocalKeys } from './keys.ts';
import { startS3Local } from './s3.ts';
import { createStaticSite } from './static.ts';
import { streamCheckpoint } from './stream-checkpoint.ts';
import { ensureWebBuild, WEB_DIST } from './web-build.ts';

/**
 * `npm start`: DynamoDB Local persisting under DATA_DIR, an S3-compatible server (s3rver) persisting
 * under DATA_DIR/s3 with the files bucket, the table from the shared definition, the
 * service keys from DATA_DIR (or SERVICE_KEYS), a first SUPERADMIN when there is no user, and the
 * HTTP server that turns requests into payload-2.0 events for the handler modules and serves the
 * dashboard (built first when web/dist is missing or older than web/'s sources).
 */
ensureWebBuild();
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

/** What this process started, stopped in reverse order on a signal or on any failure to start. */
const stoppers: (() => Promise<void>)[] = [];
/**
 * One after another, the last started first: the server stops taking requests, then the stream's
 * poller hands over its last changes while DynamoDB Local still answers, and DynamoDB Local goes last.
 */
async function stopAll(): Promise<void> {
  for (const stop of [...stoppers].reverse()) await stop().catch((error: unknown) => console.error(error));
}

/** Nothing may outlive a failed start: DynamoDB Local is a Java child that would be orphaned. */
async function failStart(error: unknown): Promise<never> {
  console.error(`file service could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exit(1);
}
// Some failures arrive as an 'error' event nobody listens to (s3rver's listen on a taken port).
process.once('uncaughtException', failStart);
try {
  await start();
  process.off('uncaughtException', failStart);
} catch (error) {
  await failStart(error);
}

async function start(): Promise<void> {
  // One short line per request for a person at a terminal (and no embedded metrics, which
  // POWERTOOLS_DEV leaves out), one JSON line each otherwise (and in AWS).
  if (process.stdout.isTTY) {
    process.env.LOG_FORMAT ??= 'line';
    process.env.POWERTOOLS_DEV ??= 'true';
  }
  // A fixed DYNAMODB_PORT lets `sam local` containers reach the same DynamoDB Local (see the README).
  const dynamo = await startDynamoDbLocal({
    dataDir: resolve(dataDir, 'dynamodb'),
    ...(process.env.DYNAMODB_PORT ? { port: Number(process.env.DYNAMODB_PORT) } : {}),
  });
  stoppers.push(dynamo.stop);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME ??= 'file-service';
  process.env.SERVICE_KEYS ??= loadOrCreateLocalKeys(dataDir);
  process.env.BUCKET_NAME ??= 'file-service-files';
  // Passkeys are bound to a domain name, never an IP address: open http://localhost:<port> for them.
  process.env.PASSKEY_ORIGIN ??= `http://localhost:${port}`;
  // A fixed S3_PORT and S3_HOST=0.0.0.0 let `sam local` containers reach the same S3 server.
  const s3 = await startS3Local({
    directory: resolve(dataDir, 's3'),
    bucketName: process.env.BUCKET_NAME,
    ...(process.env.S3_PORT ? { port: Number(process.env.S3_PORT) } : {}),
    ...(process.env.S3_HOST ? { address: process.env.S3_HOST } : {}),
  });
  stoppers.push(s3.stop);
  process.env.S3_ENDPOINT = s3.endpoint;

  const stop = async (signal: string) => {
    console.log(`${signal}: stopping`);
    await stopAll();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  // Configuration is read once and fails fast: a bad value stops the start here, not a request later.
  (await import('#shared/config/service')).config();
  (await import('#shared/config/storage')).storageConfig();
  (await import('#shared/config/oauth')).oauthConfig();
  (await import('#shared/config/passkeys')).passkeyConfig();

  const client = localClient(dynamo.endpoint);
  await ensureTable(client, process.env.TABLE_NAME);
  const { ensureStream, tableStream } = await import('./table-stream.ts');
  await ensureStream(client, process.env.TABLE_NAME);
  client.destroy();
  // The table's stream (the owners' view totals), as the stack's event source mapping feeds it. A
  // DATA_DIR without a checkpoint skips what its stream holds before anything here writes: a version
  // before checkpoints handed that over already, and a new table holds nothing yet.
  const checkpoint = streamCheckpoint(resolve(dataDir, 'table-stream.json'));
  const stream = tableStream(dynamo.endpoint, process.env.TABLE_NAME, { checkpoint });
  if (!checkpoint.kept) await stream.skipHeld();

  // Handler modules read the environment at import, so they are imported only now.
  const { bootstrapAdmin } = await import('./bootstrap.ts');
  // CREATE_ADMIN=false leaves the first account to the dashboard's first-run page.
  const admin =
    process.env.CREATE_ADMIN === 'false'
      ? undefined
      : await bootstrapAdmin(
          process.env.ADMIN_USERNAME || 'administrator',
          process.env.ADMIN_PASSWORD || randomBytes(12).toString('base64url'),
        );
  if (admin) {
    console.log(
      `created SUPERADMIN "${admin.username}"${process.env.ADMIN_PASSWORD ? '' : ` with password ${admin.password}`}` +
        ` (lost it? stop npm start and run: npm run reset-password -- ${admin.username})`,
    );
  }

  // S3's notifications (objects created or retagged), as the stack subscribes them (the thumbnails).
  const { createObjectEventFeed } = await import('./object-events.ts');
  const { requestsInFlight } = await import('./in-flight.ts');
  const inFlight = requestsInFlight();
  const objectEvents = createObjectEventFeed(console.log, { after: inFlight.settled });
  s3.onObjectEvent((event) => objectEvents.handle(event));

  // The stack's schedules (the expiry sweep), every few seconds.
  // Webhooks (docs/webhooks.md): the deliverer runs in this process; a receiver on this machine
  // (127.0.0.1, plain http) may be a target here, never in AWS.
  process.env.WEBHOOKS_ALLOW_LOOPBACK ??= 'true';
  const { startLocalWebhooks } = await import('./webhooks.ts');
  startLocalWebhooks();
  const { startSchedules } = await import('./schedules.ts');
  stoppers.push(startSchedules(Number(process.env.SCHEDULE_SECONDS ?? 5)));
  stoppers.push(stream.start(1000));

  const { createLocalServer } = await import('./server.ts');
  const server = createLocalServer({
    site: createStaticSite(WEB_DIST, { s3Origin: s3.endpoint }),
    inFlight,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Not awaited: a client's open keep-alive connection must not hold up the stop.
  stoppers.push(async () => {
    server.close();
  });
  console.log(
    `file service listening on http://${host}:${port} (data in ${dataDir}, DynamoDB Local at ${dynamo.endpoint})`,
  );
}
