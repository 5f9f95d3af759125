// `npm run simulate [-- --requests N] [-- --users N]`: drives a realistic mix of requests through the
// handlers against DynamoDB Local and s3rver, records the capacity DynamoDB reports per partition key
// (table and each index), prints the hottest keys scaled to 10,000 requests a second and exits
// non-zero when one would pass DynamoDB's per-partition limits at that rate. `-- --hot-link`: one
// short link's redirects alone, scaled to 5,000 a second (issue 34); `-- --hot-limited-link`: the same
// with `maxViews`, at 1,000 a second; `-- --hot-file`: one popular file's downloads, at 5,000 a
// second. See docs/scale.md.
import { localClient } from '../infra/local/dynamodb.ts';
import { startBenchServices } from './services.ts';

const TARGET_RPS = 10_000;
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

const services = await startBenchServices((what) => console.error(what));
// A request line and metrics per request would drown the report.
process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const reader = localClient(process.env.DYNAMODB_ENDPOINT as string);
try {
  // Handler modules read the environment at import, so everything that loads them comes now.
  const { recordCapacity } = await import('./capacity.ts');
  const { REALISTIC_MIX, simulate } = await import('./simulation.ts');
  const { HOT_RPS, simulateHot } = await import('./hot-keys.ts');
  const { formatReport, report } = await import('./simulation-report.ts');
  const recorder = recordCapacity(reader, process.env.TABLE_NAME as string);
  const started = performance.now();
  const hot = (['link', 'limited-link', 'file'] as const).find((target) =>
    process.argv.includes(`--hot-${target}`),
  );
  const mix = hot
    ? undefined
    : await simulate(
        {
          users: option('users', 300),
          // Three heavy users at 1 % of all requests each: 100 requests a second each at the target.
          heavy: { count: 3, share: 0.01, libraryFiles: 2000 },
          requests: option('requests', 2500),
          mix: REALISTIC_MIX,
          concurrency: 4,
          seed: 17,
        },
        recorder,
        (what) => console.error(what),
      );
  const run = mix ?? (await simulateHot(hot ?? 'link', option('requests', 2000), 4, recorder));
  const result = report(run, hot ? HOT_RPS[hot] : TARGET_RPS);
  console.log(formatReport(result, mix?.userIds.heavy ?? []));
  console.error(`simulated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (result.overLimit.length > 0) process.exitCode = 1;
} finally {
  reader.destroy();
  await services.stop();
}
