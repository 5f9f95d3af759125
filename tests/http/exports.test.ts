import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import { exportObjectKey } from '#shared/exports/model';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { objectEvents } from '../support/object-events.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';
import { unzip } from '../support/zip.ts';

// Loaded after support/object-events.ts has pointed S3_ENDPOINT at its own server (whose events
// reach this worker's export function).
const { bucketName, s3 } = await import('#shared/s3/client');
const { EXPORT_PART_BYTES } = await import('#shared/exports/parts');
const { seedFiles } = await import('../support/many-files.ts');
const { injectS3Fault } = await import('../support/s3-calls.ts');
const { createExport } = await import('#shared/exports/store');
const { runExport } = await import('#shared/exports/run');

type User = Awaited<ReturnType<typeof signedInUser>>;

const exportsOf = async (user: User) => {
  const listed = await call('GET', '/api/user/export', { token: user.token });
  expect(listed.status).toBe(200);
  return listed.body as { id: string; state: string; files: number; filesDone: number; size: string }[];
};

/** Starts an export and waits for the function S3's notification started to finish it. */
async function exportNow(user: User) {
  const started = await call('POST', '/api/user/export', { token: user.token });
  expect(started.status).toBe(200);
  await objectEvents.settled();
  return started.body.export.id as string;
}

/** The zip behind the export's download link, unzipped. */
async function downloadExport(user: User, id: string) {
  const link = await call('GET', `/api/user/export?id=${id}`, { token: user.token });
  expect(link.status).toBe(302);
  const response = await fetch(link.headers.location as string);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-disposition')).toContain('attachment');
  return unzip(Buffer.from(await response.arrayBuffer()));
}

const exportObjects = async (userId: string) =>
  (
    await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: `exports/${userId}/` }))
  ).Contents?.map((object) => object.Key) ?? [];

test('an export: the POST answers at once with it running; the zip holds each file byte for byte and a manifest of their metadata', async () => {
  const user = await signedInUser();
  const binary = randomBytes(300_000);
  const files = await upload(user.token, [
    { fileName: 'notes.txt', type: 'text/plain', content: Buffer.from('hello export') },
    { fileName: 'photo.bin', type: 'application/octet-stream', content: binary },
  ]);
  const started = await call('POST', '/api/user/export', { token: user.token });
  expect(started.status).toBe(200);
  expect(started.body).toMatchObject({ running: true, export: { state: 'running', completed: false } });
  await objectEvents.settled();

  const [listed] = await exportsOf(user);
  expect(listed).toMatchObject({
    id: started.body.export.id,
    state: 'completed',
    files: 2,
    filesDone: 2,
    bytes: 300_012,
    bytesDone: 300_012,
  });
  expect(Number(listed?.size)).toBeGreaterThan(300_000);
  const entries = await downloadExport(user, listed?.id as string);
  expect([...entries.keys()].sort()).toEqual(
    ['manifest.json', ...files.map((file) => `files/${file.name}`)].sort(),
  );
  expect(entries.get(`files/${files[0]?.name}`)?.toString()).toBe('hello export');
  expect(entries.get(`files/${files[1]?.name}`)?.equals(binary)).toBe(true);
  const manifest = JSON.parse(entries.get('manifest.json')?.toString() as string);
  const byName = (a: { originalName: string }, b: { originalName: string }) =>
    a.originalName.localeCompare(b.originalName);
  expect(manifest.files.sort(byName)).toEqual([
    expect.objectContaining({
      id: files[0]?.id,
      originalName: 'notes.txt',
      type: 'text/plain',
      size: 12,
      path: `files/${files[0]?.name}`,
    }),
    expect.objectContaining({ id: files[1]?.id, originalName: 'photo.bin', size: 300_000 }),
  ]);
  // Counted against nothing: the user's file counters (what quotas count) are as they were.
  const stats = (await partitionItems(user.id)).find((item) => item.sk === 'FILESTATS');
  expect([stats?.files, stats?.bytes]).toEqual([2, 300_012]);
});

test('a second export while one runs is refused with 409; of five at once exactly one starts', async () => {
  const user = await signedInUser();
  await upload(user.token, [{ fileName: 'a.txt', type: 'text/plain', content: Buffer.from('a') }]);
  const attempts = await Promise.all(
    Array.from({ length: 5 }, () => call('POST', '/api/user/export', { token: user.token })),
  );
  expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 409, 409, 409, 409]);
  expect(attempts.find((attempt) => attempt.status === 409)?.body.error).toMatch(/already running/);
  await objectEvents.settled();
  expect((await exportsOf(user)).map((listed) => listed.state)).toEqual(['completed']);
  // Once it finished, another may start.
  await exportNow(user);
  expect((await exportsOf(user)).map((listed) => listed.state)).toEqual(['completed', 'completed']);
});

test("another user's export, a malformed id and a running export: 404, 404, 409; DELETE needs its id", async () => {
  const owner = await signedInUser();
  const other = await signedInUser();
  const id = await exportNow(owner);
  for (const method of ['GET', 'DELETE'] as const) {
    const answer = await call(method, `/api/user/export?id=${id}`, { token: other.token });
    expect([answer.status, answer.body.error]).toEqual([404, 'export not found']);
    expect((await call(method, '/api/user/export?id=..%2Fx', { token: owner.token })).status).toBe(404);
  }
  expect(await exportsOf(other)).toEqual([]);
  expect((await call('DELETE', '/api/user/export', { token: owner.token })).status).toBe(400);
  expect((await call('GET', '/api/user/export')).status).toBe(401);
  expect(await exportsOf(owner)).toHaveLength(1);
  expect(await exportObjects(owner.id)).toEqual([exportObjectKey(owner.id, id)]);

  // A run in progress has no download yet.
  const running = await call('POST', '/api/user/export', { token: owner.token });
  const early = await call('GET', `/api/user/export?id=${running.body.export.id}`, { token: owner.token });
  expect(early.status).toBe(409);
  await objectEvents.settled();
});

test('deleting an export removes it from the listing and its zip from the bucket', async () => {
  const user = await signedInUser();
  await upload(user.token, [{ fileName: 'a.txt', type: 'text/plain', content: Buffer.from('a') }]);
  const id = await exportNow(user);
  expect(await exportObjects(user.id)).toHaveLength(1);
  const deleted = await call('DELETE', `/api/user/export?id=${id}`, { token: user.token });
  expect([deleted.status, deleted.body]).toEqual([200, { deleted: true }]);
  expect(await exportsOf(user)).toEqual([]);
  expect(await exportObjects(user.id)).toEqual([]);
  expect((await call('DELETE', `/api/user/export?id=${id}`, { token: user.token })).status).toBe(404);
  expect((await call('GET', `/api/user/export?id=${id}`, { token: user.token })).status).toBe(404);
});

test('a large export: 1,200 files and one file of three parts, streamed into a multipart zip whose entries are the bytes', async () => {
  const user = await signedInUser();
  const names = await seedFiles(user.id, 1200);
  const items = (await partitionItems(user.id)).filter((item) => String(item.sk).startsWith('FILE#'));
  const big = items[600] as { objectKey: string; name: string };
  const bigBytes = randomBytes(EXPORT_PART_BYTES * 2 + 12345);
  await s3.send(new PutObjectCommand({ Bucket: bucketName, Key: big.objectKey, Body: bigBytes }));

  const id = await exportNow(user);
  const [listed] = await exportsOf(user);
  const bytes = items.reduce((sum, item) => sum + Number(item.size), 0);
  expect(listed).toMatchObject({
    id,
    state: 'completed',
    files: 1200,
    filesDone: 1200,
    bytes,
    bytesDone: bytes,
  });
  expect(Number(listed?.size)).toBeGreaterThan(bigBytes.length);
  const entries = await downloadExport(user, id);
  expect(entries.size).toBe(1201);
  expect(entries.get(`files/${big.name}`)?.equals(bigBytes)).toBe(true);
  for (const name of names.filter((name) => name !== big.name)) {
    expect(entries.get(`files/${name}`)?.toString()).toBe(name);
  }
  const manifest = JSON.parse(entries.get('manifest.json')?.toString() as string);
  expect(manifest.files).toHaveLength(1200);
  // Every file listed once, in upload order, with its entry in the zip.
  expect(manifest.files.map((file: { path: string }) => file.path)).toEqual(
    items.map((item) => `files/${item.name}`),
  );
}, 600_000);

test('a run out of time stops before the next file, aborts its upload and fails the export saying how far it got; the next may start', async () => {
  const user = await signedInUser();
  await upload(user.token, [{ fileName: 'a.txt', type: 'text/plain', content: Buffer.from('a') }]);
  const record = await createExport(user.id);
  // Lambda's context with 80 s left: under the run's 90 s margin.
  expect(await runExport(user.id, record.id, () => 80_000)).toBe('failed');
  const [listed] = await exportsOf(user);
  expect(listed).toMatchObject({ state: 'failed', files: 1, filesDone: 0, completed: false });
  expect((listed as unknown as { error: string }).error).toBe(
    "too large for one run: 0 of 1 files were written in Lambda's 15 minutes",
  );
  expect(await exportObjects(user.id)).toEqual([]);
  expect((await call('GET', `/api/user/export?id=${record.id}`, { token: user.token })).status).toBe(409);
  await exportNow(user);
  expect((await exportsOf(user)).map((each) => each.state)).toEqual(['completed', 'failed']);
});

test('an export deleted while its run finishes leaves no zip behind', async () => {
  const user = await signedInUser();
  await upload(user.token, [{ fileName: 'a.txt', type: 'text/plain', content: Buffer.from('a') }]);
  const record = await createExport(user.id);
  // The owner deletes it after the zip's last part and before the run records it complete.
  let deletion: Promise<unknown> | undefined;
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'CompleteMultipartUploadCommand') {
        deletion ??= call('DELETE', `/api/user/export?id=${record.id}`, { token: user.token });
        expect(((await deletion) as { status: number }).status).toBe(200);
      }
      return next(args);
    },
    { step: 'initialize', name: 'deleteBeforeCompletion' },
  );
  try {
    expect(await runExport(user.id, record.id, () => Number.POSITIVE_INFINITY)).toBe('gone');
  } finally {
    s3.middlewareStack.remove('deleteBeforeCompletion');
  }
  expect(await exportsOf(user)).toEqual([]);
  expect(await exportObjects(user.id)).toEqual([]);
});

test('a POST whose request cannot reach S3 answers 503 and fails the export at once, so it blocks no other', async () => {
  const user = await signedInUser();
  const unavailable = injectS3Fault(
    'PutObjectCommand',
    () =>
      new S3ServiceException({
        name: 'ServiceUnavailable',
        $fault: 'server',
        $metadata: { httpStatusCode: 503 },
      }),
  );
  try {
    expect((await call('POST', '/api/user/export', { token: user.token })).status).toBe(503);
  } finally {
    unavailable.stop();
  }
  expect((await exportsOf(user)).map((each) => each.state)).toEqual(['failed']);
  await exportNow(user);
  expect((await exportsOf(user)).map((each) => each.state)).toEqual(['completed', 'failed']);
});
