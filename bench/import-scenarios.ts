import { randomBytes } from 'node:crypto';
import { call } from '../tests/support/client.ts';
import { type Scenario, scenario } from './scenario.ts';

/** A fresh Zipline id (a cuid's shape), one per request: each measures a first import (201). */
const ziplineId = () => `c${randomBytes(12).toString('hex')}`;
const BYTES = randomBytes(1024);

/**
 * The Zipline import's routes (issue 40), with a SUPERADMIN's session: each request imports a new
 * entity (the costly path: its transaction with the mapping claim). Folders, tags, links and files
 * belong to an owner imported as untimed setup; a file's start gets an owner of its own (an owner may
 * have 4 uploads pending), and its completion a started upload whose bytes are in the bucket.
 */
export async function importScenarios(superadmin: { cookie: string }): Promise<Scenario[]> {
  const cookie = superadmin.cookie;
  const put = async (kind: string, json: unknown) => {
    const id = ziplineId();
    const answer = await call('PUT', `/api/import/zipline/${kind}/${id}`, { cookie, json });
    if (answer.status !== 201 && answer.status !== 202)
      throw new Error(`fixture import failed: ${answer.text}`);
    return { id, body: answer.body };
  };
  const newOwner = async () =>
    (await put('users', { username: `bench-zl-${randomBytes(5).toString('hex')}`, role: 'USER' })).id;
  const owner = await newOwner();
  const fileBody = (ownerId: string) => ({
    owner: ownerId,
    name: `bench-${randomBytes(8).toString('hex')}.bin`,
    type: 'application/octet-stream',
    size: BYTES.length,
  });
  const started = new Map<number, { id: string; owner: string }>();
  const startedFile = async (index: number) => {
    const ownerId = await newOwner();
    const { id, body } = await put('files', fileBody(ownerId));
    const upload = body.upload as { url: string; headers: Record<string, string> };
    const stored = await fetch(upload.url, { method: 'PUT', body: BYTES, headers: upload.headers });
    if (stored.status !== 200) throw new Error(`fixture bytes failed: ${stored.status}`);
    started.set(index, { id, owner: ownerId });
    return { cookie, json: { owner: ownerId } };
  };
  const path = (kind: string) => `/api/import/zipline/${kind}/{ziplineId}`;
  const fresh = (kind: string) => () => `/api/import/zipline/${kind}/${ziplineId()}`;
  return [
    scenario('GET /api/import/zipline/status', 'GET', '/api/import/zipline/status', 200, () => ({ cookie })),
    scenario(
      'PUT /api/import/zipline/users/{ziplineId}',
      'PUT',
      path('users'),
      201,
      () => ({ cookie, json: { username: `bench-zl-${randomBytes(5).toString('hex')}`, role: 'USER' } }),
      { url: fresh('users') },
    ),
    scenario(
      'PUT /api/import/zipline/folders/{ziplineId}',
      'PUT',
      path('folders'),
      201,
      () => ({ cookie, json: { owner, name: 'Imported' } }),
      { url: fresh('folders') },
    ),
    scenario(
      'PUT /api/import/zipline/tags/{ziplineId}',
      'PUT',
      path('tags'),
      201,
      (index) => ({
        cookie,
        json: { owner, name: `tag ${index} ${randomBytes(3).toString('hex')}`, color: '#abc' },
      }),
      { url: fresh('tags') },
    ),
    scenario(
      'PUT /api/import/zipline/urls/{ziplineId}',
      'PUT',
      path('urls'),
      201,
      () => ({
        cookie,
        json: {
          owner,
          code: randomBytes(6).toString('hex'),
          destination: 'https://example.com/imported',
          views: 3,
        },
      }),
      { url: fresh('urls') },
    ),
    scenario(
      'PUT /api/import/zipline/files/{ziplineId} (presigned PUT)',
      'PUT',
      path('files'),
      202,
      async () => ({ cookie, json: fileBody(await newOwner()) }),
      { url: fresh('files'), load: 'heavySetup' },
    ),
    scenario(
      'POST /api/import/zipline/files/{ziplineId}/complete',
      'POST',
      `${path('files')}/complete`,
      201,
      startedFile,
      { url: (index) => `/api/import/zipline/files/${started.get(index)?.id}/complete`, load: 'heavySetup' },
    ),
  ];
}
