import { createHash } from 'node:crypto';
import { call } from '../support/client.ts';
import { download, expireFile, upload, uploadRequest } from '../support/files.ts';
import { updateUserQuota } from '../support/quota.ts';
import { signedInUser } from '../support/users.ts';

const sha = (bytes: Buffer | undefined) =>
  createHash('sha256')
    .update(bytes ?? Buffer.alloc(0))
    .digest('hex');

describe('file lifecycle through the HTTP path', () => {
  test('upload, list, get, patch, download, delete', async () => {
    const owner = await signedInUser();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(3000, 7)]);
    const [first, second] = await upload(owner.token, [
      { fileName: 'holiday.png', type: 'image/png', content: png },
      { fileName: 'notes.txt', type: 'text/plain', content: 'hello files' },
    ]);
    expect(first).toMatchObject({ type: 'image/png' });
    expect(first?.name).toMatch(/^[0-9a-z]{13}\.png$/);
    expect(first?.url).toBe(`https://localhost/u/${first?.name}`);
    expect(second?.type).toBe('text/plain');

    const listing = await call('GET', '/api/user/files', { token: owner.token });
    expect(listing.status).toBe(200);
    expect(listing.body.total).toBe(2);
    expect(listing.body.pages).toBe(1);
    // Newest first; both were made in one request, so the ids decide.
    expect(listing.body.page.map((file: { id: string }) => file.id).sort()).toEqual(
      [first?.id, second?.id].sort(),
    );

    const got = await call('GET', `/api/user/files/${first?.id}`, { cookie: owner.cookie });
    expect(got.status).toBe(200);
    // The File resource's fields as the contract names them (Zipline 4.4's File), restated on purpose.
    expect(Object.keys(got.body).sort()).toEqual(
      [
        'id',
        'name',
        'originalName',
        'size',
        'type',
        'views',
        'maxViews',
        'favorite',
        'createdAt',
        'updatedAt',
        'deletesAt',
        'password',
        'url',
        'thumbnail',
        'folderId',
        'tags',
      ].sort(),
    );
    expect(got.body).toMatchObject({
      // A path, as Zipline's: clients build links as origin + url.
      url: `/u/${first?.name}`,
      password: false,
      thumbnail: null,
      folderId: null,
      tags: [],
      originalName: 'holiday.png',
      size: png.length,
      views: 0,
      maxViews: null,
      favorite: false,
      deletesAt: null,
    });

    const patched = await call('PATCH', `/api/user/files/${first?.id}`, {
      token: owner.token,
      json: { favorite: true, originalName: 'Beach.png', maxViews: 5 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ favorite: true, originalName: 'Beach.png', maxViews: 5 });
    expect(patched.body.updatedAt >= got.body.updatedAt).toBe(true);
    const favorites = await call('GET', '/api/user/files?favorite=true', { token: owner.token });
    expect(favorites.body.total).toBe(1);
    expect(favorites.body.page[0].id).toBe(first?.id);

    const fetched = await download(first?.url as string);
    expect(fetched.status).toBe(200);
    expect(sha(fetched.bytes)).toBe(sha(png));
    expect(fetched.response?.headers.get('content-type')).toBe('image/png');
    // A small file is answered by the service itself: the link stays its own address.
    expect(fetched.redirect.status).toBe(200);
    const afterView = await call('GET', `/api/user/files/${first?.id}`, { token: owner.token });
    expect(afterView.body.views).toBe(1);

    const deleted = await call('DELETE', `/api/user/files/${first?.id}`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(first?.id);
    expect((await call('GET', `/api/user/files/${first?.id}`, { token: owner.token })).status).toBe(404);
    expect((await download(first?.url as string)).status).toBe(404);
    const after = await call('GET', '/api/user/files', { token: owner.token });
    expect(after.body.total).toBe(1);
    const favoritesAfter = await call('GET', '/api/user/files?favorite=true', { token: owner.token });
    expect(favoritesAfter.body).toEqual({ page: [], total: 0, pages: 0 });
  });

  test('another user sees none of it: listing, get, patch, delete all 404 or empty', async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const [file] = await upload(owner.token, [
      { fileName: 'private.txt', type: 'text/plain', content: 'mine' },
    ]);
    const listing = await call('GET', '/api/user/files?searchQuery=private', { token: stranger.token });
    expect(listing.body.page).toEqual([]);
    expect((await call('GET', '/api/user/files', { token: stranger.token })).body.total).toBe(0);
    expect((await call('GET', `/api/user/files/${file?.id}`, { token: stranger.token })).status).toBe(404);
    const patch = await call('PATCH', `/api/user/files/${file?.id}`, {
      token: stranger.token,
      json: { favorite: true },
    });
    expect(patch.status).toBe(404);
    expect((await call('DELETE', `/api/user/files/${file?.id}`, { token: stranger.token })).status).toBe(404);
    const mine = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    expect(mine.body).toMatchObject({ favorite: false, originalName: 'private.txt' });
  });

  test('without authentication every file route is 401, the download link is public', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'a.txt', content: 'x' }]);
    for (const [method, path] of [
      ['GET', '/api/user/files'],
      ['GET', `/api/user/files/${file?.id}`],
      ['PATCH', `/api/user/files/${file?.id}`],
      ['DELETE', `/api/user/files/${file?.id}`],
      ['POST', '/api/upload'],
      ['POST', '/api/user/files/uploads'],
    ] as const) {
      expect((await call(method, path)).status).toBe(401);
    }
    expect((await download(file?.url as string)).status).toBe(200);
  });
});

describe('upload options and limits', () => {
  test('x-zipline-max-views: the views beyond it are 404, also when requested concurrently', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'twice.txt', content: 'two views' }], {
      'x-zipline-max-views': '2',
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call('GET', new URL(file?.url as string).pathname)),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(2);
    expect(results.filter((result) => result.status === 404)).toHaveLength(3);
    const stored = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    expect(stored.body).toMatchObject({ views: 2, maxViews: 2 });
    // Raising the limit makes it downloadable again.
    await call('PATCH', `/api/user/files/${file?.id}`, { token: owner.token, json: { maxViews: 3 } });
    expect((await download(file?.url as string)).status).toBe(200);
    expect((await download(file?.url as string)).status).toBe(404);
  });

  test('x-zipline-deletes-at: a lifetime sets deletesAt; a past deletesAt is refused, and once passed the link is 404', async () => {
    const owner = await signedInUser();
    const before = Date.now();
    const [file] = await upload(owner.token, [{ fileName: 'brief.txt', content: 'soon gone' }], {
      'x-zipline-deletes-at': '1h',
    });
    const stored = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    const deletesAt = Date.parse(stored.body.deletesAt);
    expect(deletesAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(deletesAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect((await download(file?.url as string)).status).toBe(200);
    // A past date is refused, not stored: the sweep would delete the file without a word.
    const past = await call('PATCH', `/api/user/files/${file?.id}`, {
      token: owner.token,
      json: { deletesAt: '2001-01-01T00:00:00Z' },
    });
    expect([past.status, past.body.error]).toEqual([
      400,
      'deletesAt: must be ahead of now: a file past its expiry is deleted at once and for good (to delete it now, DELETE it)',
    ]);
    expect((await call('GET', `/api/user/files/${file?.id}`, { token: owner.token })).body.deletesAt).toBe(
      stored.body.deletesAt,
    );
    await expireFile(owner.id, file?.id as string);
    expect((await download(file?.url as string)).status).toBe(404);
    // Expired is gone for its owner too (the sweep deletes it): it cannot be reopened.
    const reopened = await call('PATCH', `/api/user/files/${file?.id}`, {
      token: owner.token,
      json: { deletesAt: null },
    });
    expect(reopened.status).toBe(404);
    expect((await download(file?.url as string)).status).toBe(404);
  });

  test('x-zipline-format and x-zipline-original-name', async () => {
    const owner = await signedInUser();
    const unique = `report-${Date.now()}-${process.pid}.pdf`;
    const [named] = await upload(
      owner.token,
      [{ fileName: unique, type: 'application/pdf', content: '%PDF' }],
      {
        'x-zipline-format': 'name',
        'x-zipline-original-name': 'true',
      },
    );
    expect(named?.name).toBe(unique);
    const fetched = await download(named?.url as string);
    expect(fetched.response?.headers.get('content-disposition')).toContain(encodeURIComponent(unique));
    const taken = await uploadRequest(owner.token, [{ fileName: unique, content: 'again' }], {
      'x-zipline-format': 'name',
    });
    expect(taken.status).toBe(400);
    const [uuid] = await upload(owner.token, [{ fileName: 'x.JPG', type: 'image/jpeg', content: 'jpg' }], {
      'x-zipline-format': 'UUID',
    });
    expect(uuid?.name).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    const [dated] = await upload(owner.token, [{ fileName: 'y', content: 'y' }], {
      'x-zipline-format': 'date',
    });
    expect(dated?.name).toMatch(/^\d{8}-\d{6}-[0-9a-z]{13}$/);
    // Without the header the download is named by its public name, not the private original one.
    const plain = await download(dated?.url as string);
    expect(plain.response?.headers.get('content-disposition')).toContain(dated?.name);
    const html = await upload(owner.token, [
      { fileName: 'page.html', type: 'text/html', content: '<script>' },
    ]);
    const served = await download(html[0]?.url as string);
    expect(served.response?.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  test('bad upload requests are 400/413/415 and store nothing', async () => {
    const owner = await signedInUser();
    const file = [{ fileName: 'a.txt', content: 'a' }];
    const badHeaders: Record<string, string>[] = [
      { 'x-zipline-format': 'emoji' },
      { 'x-zipline-max-views': '0' },
      { 'x-zipline-max-views': 'ten' },
      { 'x-zipline-deletes-at': 'tomorrow' },
      { 'x-zipline-deletes-at': 'date=2001-01-01T00:00:00Z' },
    ];
    for (const headers of badHeaders) {
      const response = await uploadRequest(owner.token, file, headers);
      expect([response.status, response.body.statusCode]).toEqual([400, 400]);
    }
    const noFile = await uploadRequest(owner.token, [{ name: 'field', content: 'just a field' }]);
    expect(noFile.status).toBe(400);
    const json = await call('POST', '/api/upload', { token: owner.token, json: { file: 'a' } });
    expect(json.status).toBe(415);
    const truncated = await call('POST', '/api/upload', {
      token: owner.token,
      raw: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(truncated.status).toBe(400);
    const tooLarge = await uploadRequest(owner.token, [
      { fileName: 'big.bin', content: Buffer.alloc(4 * 1024 * 1024 + 1) },
    ]);
    // The 413 names the ways that take a larger file.
    expect([tooLarge.status, tooLarge.body.error]).toEqual([
      413,
      'request body is too large: the limit is 4194304 bytes; send a larger file in chunks (POST /api/upload/partial, as Zipline 4.4 clients do, or content-range with x-zipline-p-* headers here) or through a presigned upload (POST /api/user/files/uploads, then PUT and complete); ShareX sends one request, so it can send at most this much',
    ]);
    const listing = await call('GET', '/api/user/files', { token: owner.token });
    expect(listing.body.total).toBe(0);
  });

  test('quota: files beyond maxFiles or maxBytes are 413 and change nothing', async () => {
    const byFiles = await signedInUser();
    await updateUserQuota(byFiles.id, { filesQuota: 'BY_FILES', maxFiles: 2, maxBytes: null });
    await upload(byFiles.token, [{ fileName: 'one', content: '1' }]);
    const overByBatch = await uploadRequest(byFiles.token, [
      { fileName: 'two', content: '2' },
      { fileName: 'three', content: '3' },
    ]);
    expect(overByBatch.status).toBe(413);
    await upload(byFiles.token, [{ fileName: 'two', content: '2' }]);
    expect((await uploadRequest(byFiles.token, [{ fileName: 'three', content: '3' }])).status).toBe(413);
    expect((await call('GET', '/api/user/files', { token: byFiles.token })).body.total).toBe(2);

    const byBytes = await signedInUser();
    await updateUserQuota(byBytes.id, { filesQuota: 'BY_BYTES', maxBytes: '1kb', maxFiles: null });
    await upload(byBytes.token, [{ fileName: 'a', content: Buffer.alloc(600) }]);
    // Two concurrent uploads that each fit alone: the counters' condition lets exactly one in.
    const racing = await Promise.all([
      uploadRequest(byBytes.token, [{ fileName: 'b', content: Buffer.alloc(400) }]),
      uploadRequest(byBytes.token, [{ fileName: 'c', content: Buffer.alloc(400) }]),
    ]);
    expect(racing.map((response) => response.status).sort()).toEqual([200, 413]);
    const presigned = await call('POST', '/api/user/files/uploads', {
      token: byBytes.token,
      json: { originalName: 'big.bin', size: 5000 },
    });
    expect(presigned.status).toBe(413);
    const listing = await call('GET', '/api/user/files', { token: byBytes.token });
    expect(listing.body.total).toBe(2);
    expect(listing.body.page.reduce((sum: number, file: { size: number }) => sum + file.size, 0)).toBe(1000);
  });
});

describe('presigned uploads for large files', () => {
  test('start, PUT to the presigned URL, complete; the file downloads byte for byte', async () => {
    const owner = await signedInUser();
    // Small here; tests/http/presigned-uploads.test.ts completes one of multipart size.
    const bytes = Buffer.alloc(64 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 255;
    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'video.mp4', size: bytes.length, type: 'video/mp4' },
      headers: { 'x-zipline-max-views': '10' },
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'if-none-match': '*' },
    });

    const early = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    expect(early.status).toBe(400);

    const put = await fetch(started.body.url, { method: 'PUT', body: bytes, headers: started.body.headers });
    expect(put.status).toBe(200);
    const stranger = await signedInUser();
    const foreign = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: stranger.token,
    });
    expect(foreign.status).toBe(404);

    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    expect(completed.status).toBe(200);
    const [file] = completed.body.files;
    expect(file.type).toBe('video/mp4');
    const again = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    expect(again.status).toBe(404);

    const stored = await call('GET', `/api/user/files/${file.id}`, { token: owner.token });
    expect(stored.body).toMatchObject({ size: bytes.length, originalName: 'video.mp4', maxViews: 10 });
    const fetched = await download(file.url);
    expect(sha(fetched.bytes)).toBe(sha(bytes));
    expect((await call('GET', '/api/user/files', { token: owner.token })).body.total).toBe(1);
  });

  test('bad start requests are 400, unknown uploads 404', async () => {
    const owner = await signedInUser();
    for (const json of [
      {},
      { originalName: 'a', size: -1 },
      { originalName: 'a', size: 1.5 },
      { originalName: 'x'.repeat(256), size: 1 },
      { originalName: 1, size: 1 },
      { originalName: 'a', size: 1, type: 'not a type' },
      { originalName: 'a', size: 1, extra: true },
    ]) {
      expect((await call('POST', '/api/user/files/uploads', { token: owner.token, json })).status).toBe(400);
    }
    const huge = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'a', size: 6 * 1024 ** 3 },
    });
    expect(huge.status).toBe(413);
    const unknown = await call('POST', `/api/user/files/uploads/${'0'.repeat(32)}/complete`, {
      token: owner.token,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('PATCH validation', () => {
  test('bad bodies are 400 and change nothing', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'keep.txt', content: 'k' }]);
    for (const json of [
      { favorite: 'yes' },
      { maxViews: 0 },
      { maxViews: 1.5 },
      { deletesAt: 'soon' },
      { originalName: '' },
      { originalName: 'a\u0007b' },
      { name: 'dir/renamed' },
      { name: '' },
      { views: 0 },
    ]) {
      const response = await call('PATCH', `/api/user/files/${file?.id}`, { token: owner.token, json });
      expect(response.status).toBe(400);
    }
    const stored = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    expect(stored.body).toMatchObject({
      name: file?.name,
      originalName: 'keep.txt',
      favorite: false,
      maxViews: null,
      deletesAt: null,
    });
  });

  test('concurrent favorite toggles keep the favorites total exact', async () => {
    const owner = await signedInUser();
    const files = await upload(
      owner.token,
      Array.from({ length: 6 }, (_, i) => ({ fileName: `f${i}.txt`, content: String(i) })),
    );
    await Promise.all(
      files.flatMap((file) => [
        call('PATCH', `/api/user/files/${file.id}`, { token: owner.token, json: { favorite: true } }),
        call('PATCH', `/api/user/files/${file.id}`, { token: owner.token, json: { favorite: true } }),
      ]),
    );
    const favorites = await call('GET', '/api/user/files?favorite=true&perpage=100', { token: owner.token });
    expect(favorites.body.total).toBe(6);
    expect(favorites.body.page).toHaveLength(6);
  });
});
