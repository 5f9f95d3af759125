import { MAX_PENDING_UPLOADS } from '#shared/files/reservation/pending';
import { createUser } from '#shared/users/creation';
import {
  freshSessionCookie,
  PASSWORD,
  presignedUploadAwaitingCompletion,
  uniqueName,
  uploadFile,
  uploadOptions,
} from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';
import { viewerAddress } from './services.ts';

type Caller = { token: string };
type Uploaded = { id: string; name: string };

/**
 * The files routes and the public pages of a file: uploads (a fresh starter whenever the last one
 * has its pending uploads' maximum), the listing of `filesOwner`'s library, one file's reads and
 * changes, deletions of files uploaded as untimed setup, and the public reads of `file`, the
 * picture `viewed` (thumbnailed) and the password-protected `locked`.
 */
export function fileScenarios(
  passwordHash: string,
  { uploader, filesOwner }: { uploader: Caller; filesOwner: Caller },
  { file, viewed, locked }: { file: Uploaded; viewed: Uploaded; locked: Uploaded },
): Scenario[] {
  return [
    scenario('POST /api/upload (4 KiB)', 'POST', '/api/upload', 200, () => uploadOptions(uploader.token)),
    (() => {
      // Each start stays pending: a fresh user whenever the last one has its pending uploads' maximum.
      let starter: Promise<string> | undefined;
      return scenario(
        'POST /api/user/files/uploads',
        'POST',
        '/api/user/files/uploads',
        200,
        async (index) => {
          if (starter === undefined || index % MAX_PENDING_UPLOADS === 0) {
            starter = createUser({ username: uniqueName('bench-starter'), passwordHash, role: 'USER' }).then(
              (owner) => freshSessionCookie(owner.id),
            );
          }
          return {
            cookie: await starter,
            json: { originalName: 'recording.mp4', size: 50 * 1024 ** 2, type: 'video/mp4' },
          };
        },
      );
    })(),
    (() => {
      const pending: string[] = [];
      return scenario(
        'POST /api/user/files/uploads/{id}/complete',
        'POST',
        '/api/user/files/uploads/{id}/complete',
        200,
        async () => {
          pending.push(await presignedUploadAwaitingCompletion(uploader.token));
          return { token: uploader.token };
        },
        { url: () => `/api/user/files/uploads/${pending.at(-1)}/complete`, load: 'heavySetup' },
      );
    })(),
    scenario(
      'GET /api/user/files (page of 15)',
      'GET',
      '/api/user/files',
      200,
      () => ({ token: filesOwner.token }),
      { url: () => '/api/user/files?perpage=15' },
    ),
    scenario(
      'GET /api/user/files/{id}',
      'GET',
      '/api/user/files/{id}',
      200,
      () => ({ token: filesOwner.token }),
      {
        url: () => `/api/user/files/${file.id}`,
      },
    ),
    scenario(
      'PATCH /api/user/files/{id} (favorite)',
      'PATCH',
      '/api/user/files/{id}',
      200,
      (index) => ({ token: filesOwner.token, json: { favorite: index % 2 === 0 } }),
      { url: () => `/api/user/files/${file.id}` },
    ),
    (() => {
      const doomed: string[] = [];
      return scenario(
        'DELETE /api/user/files/{id}',
        'DELETE',
        '/api/user/files/{id}',
        200,
        async () => {
          doomed.push((await uploadFile(uploader.token)).id);
          return { token: uploader.token };
        },
        { url: () => `/api/user/files/${doomed.at(-1)}`, load: 'heavySetup' },
      );
    })(),
    scenario(
      'GET /api/user/files/{id}/raw (owner, 200)',
      'GET',
      '/api/user/files/{id}/raw',
      200,
      () => ({ token: filesOwner.token }),
      { url: () => `/api/user/files/${file.id}/raw` },
    ),
    scenario('GET /raw/{name} (200)', 'GET', '/raw/{name}', 200, () => ({}), {
      url: () => `/raw/${encodeURIComponent(file.name)}`,
    }),
    scenario('GET /view/{name} (image page)', 'GET', '/view/{name}', 200, () => ({}), {
      url: () => `/view/${encodeURIComponent(viewed.name)}`,
    }),
    scenario(
      'POST /view/{name} (password form)',
      'POST',
      '/view/{name}',
      200,
      (index) => ({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: new URLSearchParams({ password: PASSWORD }).toString(),
        sourceIp: viewerAddress('view form', index),
      }),
      { url: () => `/view/${encodeURIComponent(locked.name)}`, load: 'password' },
    ),
    scenario('GET /api/oembed/{name}', 'GET', '/api/oembed/{name}', 200, () => ({}), {
      url: () => `/api/oembed/${encodeURIComponent(viewed.name)}`,
    }),
  ];
}
