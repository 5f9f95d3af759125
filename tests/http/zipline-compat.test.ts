import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { ZIPLINE_HEADER_NAMES } from '#shared/http/zipline-headers';
import { logger } from '#shared/log/logger';
import type { Route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';
import { SERVICE_VERSION } from '#shared/version';
import { call, type TestResponse } from '../support/client.ts';
import { faultInjector, provisionedThroughputExceeded } from '../support/faults.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { urlFor } from '../support/routes.ts';
import { signedInUser } from '../support/users.ts';

const faults = faultInjector();
afterEach(() => faults.clear());

describe('editing a file the way Zipline’s edit dialog does', () => {
  test('maxViews, password "", originalName and type in one PATCH', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [
      { fileName: 'e.bin', type: 'application/octet-stream', content: 'hi' },
    ]);
    const response = await call('PATCH', `/api/user/files/${file?.id}`, {
      token: owner.token,
      json: { maxViews: 5, password: '', originalName: 'e2.txt', type: 'text/plain' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ maxViews: 5, originalName: 'e2.txt', type: 'text/plain' });
    // Whether a password is set, never a hash.
    expect(response.body.password).toBe(false);
    // The stored type is what downloads are served with.
    const fetched = await download(response.body.url);
    expect(fetched.response?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  test('{} and the no-op values of password and tags change nothing and answer the file', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'same.txt', content: 'same' }]);
    const before = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    for (const json of [
      {},
      { password: null },
      { password: '' },
      { tags: [] },
      { password: null, tags: [] },
    ]) {
      const response = await call('PATCH', `/api/user/files/${file?.id}`, { token: owner.token, json });
      expect([json, response.status]).toEqual([json, 200]);
      expect(response.body).toEqual(before.body);
    }
  });

  test("tags that are not the caller's, or a bad type, are a clear 400 that changes nothing", async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'keep.txt', type: 'text/plain', content: 'k' }]);
    const before = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    const cases: [unknown, string][] = [
      [{ tags: ['t1'], favorite: true }, 'tags.0: invalid tag somewhere: not a tag id'],
      [
        { tags: ['01jd0000000000000000000000'], favorite: true },
        'invalid tag somewhere: tags must be ids of your tags',
      ],
      [{ tags: 'none' }, 'tags: must be an array of tag ids'],
      [{ password: 5 }, 'password: must be a string or null'],
      [{ type: 'not a type', favorite: true }, 'type: must be a MIME type'],
      [{ type: 7 }, 'type: must be a MIME type'],
    ];
    for (const [json, error] of cases) {
      const response = await call('PATCH', `/api/user/files/${file?.id}`, { token: owner.token, json });
      expect(response.body).toEqual({ error, statusCode: 400 });
    }
    expect((await call('GET', `/api/user/files/${file?.id}`, { token: owner.token })).body).toEqual(
      before.body,
    );
  });

  test('a type change moves the file in the dashboard filter, the type order and the type search', async () => {
    const owner = await signedInUser();
    const [image, other] = await upload(owner.token, [
      { fileName: 'a.png', type: 'image/png', content: PNG_1X1 },
      { fileName: 'b.bin', type: 'application/octet-stream', content: 'b' },
    ]);
    const dashboard = () => call('GET', '/api/user/files?filter=dashboard', { token: owner.token });
    expect((await dashboard()).body.total).toBe(1);
    await call('PATCH', `/api/user/files/${image?.id}`, {
      token: owner.token,
      json: { type: 'Application/PDF' },
    });
    await call('PATCH', `/api/user/files/${other?.id}`, { token: owner.token, json: { type: 'video/mp4' } });
    const after = await dashboard();
    expect(after.body.total).toBe(1);
    expect(after.body.page.map((file: { id: string }) => file.id)).toEqual([other?.id]);
    const byType = await call('GET', '/api/user/files?sortBy=type&order=asc', { token: owner.token });
    expect(byType.body.page.map((file: { type: string }) => file.type)).toEqual([
      'application/pdf',
      'video/mp4',
    ]);
    const search = await call('GET', '/api/user/files?searchField=type&searchQuery=pdf', {
      token: owner.token,
    });
    expect(search.body.page.map((file: { id: string }) => file.id)).toEqual([image?.id]);
    // Favourites of media files are counted apart: a type change while favourite keeps them exact.
    await call('PATCH', `/api/user/files/${other?.id}`, { token: owner.token, json: { favorite: true } });
    await call('PATCH', `/api/user/files/${other?.id}`, { token: owner.token, json: { type: 'text/plain' } });
    const favouriteMedia = await call('GET', '/api/user/files?filter=dashboard&favorite=true', {
      token: owner.token,
    });
    expect(favouriteMedia.body.total).toBe(1);
    await call('PATCH', `/api/user/files/${other?.id}`, {
      token: owner.token,
      json: { type: 'application/zip' },
    });
    const none = await call('GET', '/api/user/files?filter=dashboard&favorite=true', { token: owner.token });
    expect(none.body).toEqual({ page: [], total: 0, pages: 0 });
  });
});

describe('HEAD answers like GET without a body', () => {
  const getRoutes = routes.filter((route) => route.method === 'GET');

  const comparable = (response: TestResponse) => {
    // Cursors are sealed anew on every call; their presence is what must match.
    const { 'x-next-cursor': cursor, 'content-length': _, ...headers } = response.headers;
    return { status: response.status, headers: { ...headers, cursor: cursor !== undefined } };
  };

  test.each(getRoutes.map((route) => [`HEAD ${route.path}`, route] as [string, Route]))(
    '%s: the GET’s status and headers, content-length, no body',
    async (_, route) => {
      const admin = await signedInUser('SUPERADMIN');
      await call('PATCH', '/api/user', { token: admin.token, json: { avatar: PNG_1X1.toString('base64') } });
      for (const auth of [{}, { token: admin.token }]) {
        const get = await call('GET', urlFor(route), auth);
        const head = await call('HEAD', urlFor(route), auth);
        expect(comparable(head)).toEqual(comparable(get));
        expect(head.text).toBe('');
        expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
      }
    },
  );

  test('HEAD /raw/{name} redirects to a URL signed for HEAD and counts no view', async () => {
    const owner = await signedInUser();
    const [file] = await upload(
      owner.token,
      [{ fileName: 'h.txt', type: 'text/plain', content: 'twelve bytes' }],
      {
        'x-zipline-max-views': '1',
      },
    );
    const path = new URL(file?.url as string).pathname;
    for (let i = 0; i < 3; i++) {
      const head = await call('HEAD', path);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers['content-length']).toBe('12');
      expect(head.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect((await call('GET', `/api/user/files/${file?.id}`, { token: owner.token })).body.views).toBe(0);
    // The one view is still there for a real download; after it HEAD says what GET says: gone.
    expect((await download(file?.url as string)).status).toBe(200);
    expect((await call('HEAD', path)).status).toBe(404);
    expect((await call('HEAD', '/raw/no-such-name')).status).toBe(404);
  });

  test('HEAD on an unknown path is 404, on a path without GET 405 naming HEAD where it applies', async () => {
    const unknown = await call('HEAD', '/api/nothing-here');
    expect([unknown.status, unknown.text]).toEqual([404, '']);
    const upload = await call('HEAD', '/api/upload');
    expect([upload.status, upload.text, upload.headers.allow]).toEqual([405, '', 'POST']);
    expect((await call('DELETE', '/api/user')).headers.allow).toBe('GET, HEAD, PATCH');
  });
});

describe('file URLs, downloads and upload responses', () => {
  test('listings and GET/PATCH/DELETE give the url as a path; uploads give it absolute', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'u.txt', content: 'u' }]);
    expect(file?.url).toBe(`https://localhost/u/${file?.name}`);
    const path = `/u/${file?.name}`;
    const listing = await call('GET', '/api/user/files', { token: owner.token });
    expect(listing.body.page[0]).toMatchObject({ url: path, thumbnail: null });
    const search = await call('GET', `/api/user/files?searchQuery=${file?.name}`, { token: owner.token });
    expect(search.body.page[0].url).toBe(path);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await call(method, `/api/user/files/${file?.id}`, {
        token: owner.token,
        ...(method === 'PATCH' ? { json: { favorite: true } } : {}),
      });
      expect([method, response.body.url]).toEqual([method, path]);
    }
  });

  test('?download=true serves an attachment named as the download is named; bad values are 400', async () => {
    const owner = await signedInUser();
    const original = `Holiday photo ${Date.now()}.png`;
    const [plain, named] = [
      ...(await upload(owner.token, [{ fileName: 'photo.png', type: 'image/png', content: PNG_1X1 }])),
      ...(await upload(owner.token, [{ fileName: original, type: 'image/png', content: PNG_1X1 }], {
        'x-zipline-original-name': 'true',
      })),
    ];
    const inline = await download(plain?.url as string);
    expect(inline.response?.headers.get('content-disposition')).toMatch(/^inline/);
    const path = (url: string | undefined) => new URL(url as string).pathname;
    const attachment = await download(`${path(plain?.url)}?download=true`);
    expect(attachment.status).toBe(200);
    expect(attachment.response?.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${plain?.name}`,
    );
    // The original name only where the uploader asked for it: otherwise it stays private.
    const namedAttachment = await download(`${path(named?.url)}?download=true`);
    expect(namedAttachment.response?.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent(original)}`,
    );
    expect(
      (await download(`${path(plain?.url)}?download=false&_=1`)).response?.headers.get('content-disposition'),
    ).toMatch(/^inline/);
    const bad = await call('GET', `${path(plain?.url)}?download=maybe`);
    expect(bad.body).toEqual({ error: 'download: must be true or false', statusCode: 400 });
    const views = await call('GET', `/api/user/files/${plain?.id}`, { token: owner.token });
    expect(views.body.views).toBe(3);
  });

  test('an upload that sets an expiry answers deletesAt beside files; one without does not', async () => {
    const owner = await signedInUser();
    const expiring = await uploadRequest(owner.token, [{ fileName: 'x', content: 'x' }], {
      'x-zipline-deletes-at': '1h',
    });
    expect(expiring.status).toBe(200);
    const stored = await call('GET', `/api/user/files/${expiring.body.files[0].id}`, { token: owner.token });
    expect(expiring.body.deletesAt).toBe(stored.body.deletesAt);
    expect(Date.parse(expiring.body.deletesAt) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    const lasting = await uploadRequest(owner.token, [{ fileName: 'y', content: 'y' }]);
    expect(Object.keys(lasting.body)).toEqual(['files']);

    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'big.bin', size: 3 },
      headers: { 'x-zipline-deletes-at': '2d' },
    });
    await fetch(started.body.url, { method: 'PUT', body: 'abc', headers: started.body.headers });
    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    expect(completed.status).toBe(200);
    expect(completed.body.files[0].url).toMatch(/^https:\/\/localhost\/u\//);
    expect(Date.parse(completed.body.deletesAt) - Date.now()).toBeGreaterThan(47 * 3600 * 1000);
  });
});

describe('quota in Zipline’s shape', () => {
  test('filesType BY_BYTES / BY_FILES / NONE is stored and answered in the contract’s shape', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser();
    const patch = (quota: unknown) =>
      call('PATCH', `/api/users/${user.id}`, { token: admin.token, json: { quota } });
    const byBytes = await patch({ filesType: 'BY_BYTES', maxBytes: '10gb', maxFiles: 3, maxUrls: null });
    expect(byBytes.status).toBe(200);
    expect(byBytes.body.quota).toEqual({ filesQuota: 'BY_BYTES', maxBytes: '10737418240', maxFiles: null });
    const byFiles = await patch({ filesType: 'BY_FILES', maxFiles: 1, maxBytes: null, maxUrls: 5 });
    // maxUrls limits short links (issue 34, tests/http/links-api.test.ts).
    expect(byFiles.body.quota).toEqual({ filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 1, maxUrls: 5 });
    // It is enforced like any quota.
    await upload(user.token, [{ fileName: 'one', content: '1' }]);
    expect((await uploadRequest(user.token, [{ fileName: 'two', content: '2' }])).status).toBe(413);
    const none = await patch({ filesType: 'NONE', maxBytes: null, maxFiles: null, maxUrls: null });
    expect(none.body.quota).toBeNull();
    expect((await uploadRequest(user.token, [{ fileName: 'two', content: '2' }])).status).toBe(200);
    const created = await call('POST', '/api/users', {
      token: admin.token,
      json: {
        username: `zq-${Date.now()}`,
        password: 'long enough password',
        quota: { filesType: 'BY_FILES', maxFiles: 10 },
      },
    });
    expect(created.body.quota).toEqual({ filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 10 });
  });

  test('a Zipline quota without its limit, or with bad values, is a 400 that changes nothing', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser();
    const cases: [unknown, string][] = [
      [{ filesType: 'BY_BYTES', maxFiles: 3 }, 'quota: maxBytes is required with BY_BYTES'],
      [{ filesType: 'BY_FILES', maxBytes: '1gb' }, 'quota: maxFiles is required with BY_FILES'],
      [{ filesType: 'ALL' }, 'quota.filesType: must be BY_BYTES, BY_FILES or NONE'],
      [{ filesType: 'NONE', maxUrls: 0 }, 'quota.maxUrls: maxUrls must be at least 1'],
      [{ filesType: 'NONE', maxUrls: 5 }, 'quota: maxUrls needs filesType BY_BYTES or BY_FILES'],
      [{ filesType: 'NONE', extra: 1 }, 'quota.extra: unknown property'],
    ];
    for (const [quota, error] of cases) {
      const response = await call('PATCH', `/api/users/${user.id}`, { token: admin.token, json: { quota } });
      expect(response.body).toEqual({ error, statusCode: 400 });
    }
    const stored = await call('GET', `/api/users/${user.id}`, { token: admin.token });
    expect(stored.body.quota).toBeNull();
  });
});

describe('messages for missing fields', () => {
  test('a missing required field says it is required', async () => {
    const admin = await signedInUser('ADMIN');
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/users', { password: 'long enough password' }, 'username is required'],
      ['POST', '/api/users', { username: 'someone' }, 'password is required'],
      ['POST', '/api/auth/login', { username: 'someone' }, 'password is required'],
      ['POST', '/api/user/files/uploads', { size: 3 }, 'originalName is required'],
    ];
    for (const [method, path, json, error] of cases) {
      const response = await call(method, path, { token: admin.token, json });
      expect([path, response.body]).toEqual([path, { error, statusCode: 400 }]);
    }
    const wrongType = await call('PATCH', '/api/user', { token: admin.token, json: { view: 5 } });
    expect(wrongType.body.error).toBe('view: must be a JSON object');
  });
});

describe('health and version', () => {
  test('GET /api/healthcheck is public and passes while the table answers', async () => {
    const response = await call('GET', '/api/healthcheck');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ pass: true });
  });

  test('GET /api/healthcheck is a 503 when the table does not answer', async () => {
    faults.inject({ command: 'GetItemCommand', error: provisionedThroughputExceeded, times: 100 });
    const errors = jest.spyOn(logger, 'error');
    const response = await call('GET', '/api/healthcheck');
    expect(errors).toHaveBeenCalledWith(
      'healthcheck: the table did not answer',
      expect.objectContaining({
        error: expect.objectContaining({ name: 'ProvisionedThroughputExceededException' }),
      }),
    );
    errors.mockRestore();
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'the service cannot reach its table', statusCode: 503 });
    expect(response.headers['retry-after']).toBe('5');
  });

  test('GET /api/version answers the package version to a signed-in caller', async () => {
    const me = await signedInUser();
    const response = await call('GET', '/api/version', { token: me.token });
    expect(response.status).toBe(200);
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(SERVICE_VERSION).toBe(version);
    expect(response.body).toEqual({ version, details: { version } });
    expect((await call('GET', '/api/version')).status).toBe(401);
  });
});

describe('CORS preflight', () => {
  test('allows every x-zipline-* header and content-range, so browser uploaders reach the handler', async () => {
    const requested = ZIPLINE_HEADER_NAMES.join(', ');
    const response = await call('OPTIONS', '/api/upload', {
      headers: {
        origin: 'https://uploader.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': `authorization, ${requested}`,
      },
    });
    expect(response.status).toBe(204);
    const allowed = (response.headers['access-control-allow-headers'] as string).split(',');
    for (const header of [...ZIPLINE_HEADER_NAMES, 'authorization', 'content-type']) {
      expect(allowed).toContain(header);
    }
    expect(ZIPLINE_HEADER_NAMES).toEqual(
      expect.arrayContaining([
        'x-zipline-password',
        'x-zipline-p-identifier',
        'content-range',
        'x-zipline-no-json',
      ]),
    );
  });
});
