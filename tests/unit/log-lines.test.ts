import { execFile } from 'node:child_process';

/**
 * What `npm start` prints per request: on a terminal (the runner sets LOG_FORMAT=line) one short
 * line; otherwise, as in AWS, Powertools' JSON line. The logger reads the format once, at import, so
 * each case runs in a process of its own.
 */
const SCRIPT = `
const { logger } = await import('#shared/log/logger');
logger.info('request', { requestId: 'r1', route: 'GET /api/user', status: 200, latencyMs: 3.2, userId: 'u1', coldStart: true });
logger.info('request', { requestId: 'r2', route: 'GET /raw/{name}', status: 404, latencyMs: 1.5, coldStart: false });
logger.info('expiry sweep', { expired: 1, skipped: 0 });
logger.error('unexpected error', { requestId: 'r3', error: new Error('boom') });
`;

function run(env: Record<string, string>) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
    execFile(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', '--eval', SCRIPT, '--input-type=module'],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
    ),
  );
}

test('LOG_FORMAT=line: one short line per request, fields for the rest, an error with its stack', async () => {
  const { stdout, stderr } = await run({ LOG_FORMAT: 'line' });
  expect(stdout.split('\n')).toEqual([
    'GET /api/user 200 3.2ms user u1 (cold start)',
    'GET /raw/{name} 404 1.5ms',
    'INFO expiry sweep expired=1 skipped=0',
    '',
  ]);
  expect(stderr).toMatch(/^ERROR unexpected error requestId=r3\nError: boom\n {4}at /);
}, 60_000);

test('otherwise one JSON line per entry, as in AWS', async () => {
  const { stdout } = await run({});
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(3);
  expect(JSON.parse(lines[0] as string)).toMatchObject({
    level: 'INFO',
    message: 'request',
    route: 'GET /api/user',
    status: 200,
    userId: 'u1',
  });
}, 60_000);
