import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

interface FileResource {
  id: string;
  name: string;
  originalName: string;
  size: number;
  type: string;
  views: number;
  favorite: boolean;
  createdAt: string;
  updatedAt: string;
  deletesAt: string | null;
}

// The contract's sort fields, restated on purpose: a change to the service's list must fail here.
const SORT_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'deletesAt',
  'name',
  'originalName',
  'size',
  'type',
  'views',
  'favorite',
] as const;

/** The order the service promises: the field (names case-insensitive, no deletesAt last), then id. */
function expectedOrder(files: FileResource[], field: (typeof SORT_FIELDS)[number], order: 'asc' | 'desc') {
  const value = (file: FileResource): string | number => {
    const raw = file[field];
    if (field === 'deletesAt') return (raw as string | null) ?? '~';
    if (typeof raw === 'boolean') return raw ? 1 : 0;
    if (typeof raw === 'string' && field !== 'createdAt' && field !== 'updatedAt') return raw.toLowerCase();
    return raw as string | number;
  };
  const direction = order === 'asc' ? 1 : -1;
  return [...files]
    .sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x !== y) return x < y ? -direction : direction;
      return a.id < b.id ? -direction : a.id > b.id ? direction : 0;
    })
    .map((file) => file.id);
}

let owner: Awaited<ReturnType<typeof signedInUser>>;
let all: FileResource[];
const TYPES = ['image/png', 'text/plain', 'application/pdf', 'video/mp4', 'application/zip'];

beforeAll(async () => {
  owner = await signedInUser();
  // Names share letters in both cases, sizes and types repeat, so ties are exercised.
  const parts = Array.from({ length: 23 }, (_, i) => ({
    fileName: `${i % 2 ? 'Holiday' : 'report'}-${String.fromCharCode(97 + ((i * 7) % 26))}${i}.bin`,
    type: TYPES[i % TYPES.length] as string,
    content: Buffer.alloc(100 + (i % 6) * 10, i),
  }));
  const uploaded = [
    ...(await upload(owner.token, parts.slice(0, 10))),
    ...(await upload(owner.token, parts.slice(10, 15), { 'x-zipline-deletes-at': '2d' })),
    ...(await upload(owner.token, parts.slice(15), { 'x-zipline-deletes-at': '1d' })),
  ];
  for (const [index, file] of uploaded.entries()) {
    if (index % 3 === 0) {
      await call('PATCH', `/api/user/files/${file.id}`, { token: owner.token, json: { favorite: true } });
    }
    for (let view = 0; view < index % 4; view++) await download(file.url);
  }
  const listing = await call('GET', '/api/user/files?perpage=100', { token: owner.token });
  all = listing.body.page;
  expect(all).toHaveLength(23);
});

describe('GET /api/user/files listing', () => {
  test.each(
    SORT_FIELDS.flatMap((field) => [
      [field, 'asc'],
      [field, 'desc'],
    ]),
  )(
    'sortBy=%s order=%s pages through every file once, in order, by page number and by cursor',
    async (field, order) => {
      const expected = expectedOrder(all, field as (typeof SORT_FIELDS)[number], order as 'asc' | 'desc');
      const byPage: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const response = await call(
          'GET',
          `/api/user/files?sortBy=${field}&order=${order}&perpage=7&page=${page}`,
          {
            token: owner.token,
          },
        );
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ total: 23, pages: 4 });
        byPage.push(...response.body.page.map((file: FileResource) => file.id));
      }
      expect(byPage).toEqual(expected);

      const byCursor: string[] = [];
      let cursor: string | undefined;
      for (let step = 0; step < 10; step++) {
        const response = await call(
          'GET',
          `/api/user/files?sortBy=${field}&order=${order}&perpage=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { token: owner.token },
        );
        byCursor.push(...response.body.page.map((file: FileResource) => file.id));
        cursor = response.headers['x-next-cursor'];
        if (!cursor) break;
      }
      expect(byCursor).toEqual(expected);
    },
  );

  test('defaults: 15 per page, newest first', async () => {
    const response = await call('GET', '/api/user/files', { token: owner.token });
    expect(response.body.page.map((file: FileResource) => file.id)).toEqual(
      expectedOrder(all, 'createdAt', 'desc').slice(0, 15),
    );
    expect(response.body).toMatchObject({ total: 23, pages: 2 });
    const past = await call('GET', '/api/user/files?page=9', { token: owner.token });
    expect(past.body).toEqual({ page: [], total: 23, pages: 2 });
  });

  test('filters: favorite and dashboard (image, video, audio, text), with exact totals', async () => {
    const media = all.filter((file) => /^(image|video|audio|text)\//.test(file.type));
    const favorites = all.filter((file) => file.favorite);
    const cases: [string, FileResource[]][] = [
      ['filter=dashboard', media],
      ['favorite=true', favorites],
      ['filter=dashboard&favorite=true', media.filter((file) => file.favorite)],
      ['filter=none&favorite=false', all],
      ['filter=all', all],
    ];
    for (const [query, expected] of cases) {
      for (const sortBy of ['createdAt', 'size', 'favorite']) {
        const seen: string[] = [];
        for (let page = 1; page <= 5; page++) {
          const response = await call(
            'GET',
            `/api/user/files?${query}&sortBy=${sortBy}&perpage=4&page=${page}`,
            {
              token: owner.token,
            },
          );
          expect(response.body.total).toBe(expected.length);
          seen.push(...response.body.page.map((file: FileResource) => file.id));
        }
        expect(seen).toEqual(expectedOrder(expected, sortBy as 'createdAt', 'desc').slice(0, 20));
      }
    }
  });

  test('search: case-insensitive substring of name, originalName, type or id, paged and sorted', async () => {
    const searches: [string, string, (file: FileResource) => string][] = [
      ['originalName', 'HOLIDAY', (file) => file.originalName],
      ['originalName', 'rt-', (file) => file.originalName],
      ['type', 'APPLICATION/', (file) => file.type],
      ['name', all[0]?.name.slice(2, 6).toUpperCase() as string, (file) => file.name],
      ['id', all[5]?.id.slice(-8) as string, (file) => file.id],
    ];
    for (const [field, query, value] of searches) {
      const matches = all.filter((file) => value(file).toLowerCase().includes(query.toLowerCase()));
      expect(matches.length).toBeGreaterThan(0);
      for (const [sortBy, order] of [
        ['createdAt', 'desc'],
        ['size', 'asc'],
        ['originalName', 'desc'],
      ] as const) {
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const response = await call(
            'GET',
            `/api/user/files?searchField=${field}&searchQuery=${encodeURIComponent(query)}&sortBy=${sortBy}&order=${order}&perpage=5&page=${page}`,
            { token: owner.token },
          );
          expect(response.status).toBe(200);
          expect(response.body.search).toEqual({ field, query });
          // The exact number of matches, as Zipline clients read it.
          expect([response.body.total, response.body.pages]).toEqual([
            matches.length,
            Math.ceil(matches.length / 5),
          ]);
          seen.push(...response.body.page.map((file: FileResource) => file.id));
        }
        expect(seen).toEqual(expectedOrder(matches, sortBy, order).slice(0, 15));
      }
    }
    const none = await call('GET', '/api/user/files?searchQuery=zzzz-nothing', { token: owner.token });
    expect(none.body).toEqual({
      page: [],
      total: 0,
      pages: 0,
      search: { field: 'name', query: 'zzzz-nothing' },
    });
    const empty = await call('GET', '/api/user/files?searchField=type&searchQuery=', { token: owner.token });
    expect(empty.body.total).toBe(23);
  });

  test('bad parameters are 400', async () => {
    for (const query of [
      'page=0',
      'page=-1',
      'page=abc',
      'perpage=0',
      'perpage=101',
      'perpage=1.5',
      'filter=images',
      'favorite=yes',
      'sortBy=owner',
      'order=up',
      'searchField=content',
      'unknown=1&perpage=0',
      'cursor=abc',
      `searchQuery=${'a'.repeat(256)}`,
    ]) {
      const response = await call('GET', `/api/user/files?${query}`, { token: owner.token });
      expect([query, response.status, response.body.statusCode]).toEqual([query, 400, 400]);
    }
  });

  test('parameters the route does not know (cache-busters) are ignored', async () => {
    const plain = await call('GET', '/api/user/files?page=1&perpage=5', { token: owner.token });
    const busted = await call('GET', '/api/user/files?page=1&perpage=5&_=1700000000&noincl=true', {
      token: owner.token,
    });
    expect(busted.status).toBe(200);
    expect(busted.body).toEqual(plain.body);
    expect(busted.body.page).toHaveLength(5);
  });

  test('a cursor works only for its user, order and filters, and cannot be edited', async () => {
    const first = await call('GET', '/api/user/files?sortBy=size&perpage=5', { token: owner.token });
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeDefined();
    const stranger = await signedInUser();
    const elsewhere = await call('GET', `/api/user/files?sortBy=size&perpage=5&cursor=${cursor}`, {
      token: stranger.token,
    });
    expect(elsewhere.status).toBe(400);
    const otherOrder = await call('GET', `/api/user/files?sortBy=size&order=asc&perpage=5&cursor=${cursor}`, {
      token: owner.token,
    });
    expect(otherOrder.status).toBe(400);
    const [payload, signature] = cursor.split('.') as [string, string];
    const key = JSON.parse(Buffer.from(payload, 'base64url').toString());
    key.pk = `USER#${stranger.id}`;
    const forged = `${Buffer.from(JSON.stringify(key)).toString('base64url')}.${signature}`;
    expect(
      (await call('GET', `/api/user/files?sortBy=size&perpage=5&cursor=${forged}`, { token: owner.token }))
        .status,
    ).toBe(400);
    const withSearch = await call(
      'GET',
      `/api/user/files?sortBy=size&perpage=5&searchQuery=a&cursor=${cursor}`,
      {
        token: owner.token,
      },
    );
    expect(withSearch.status).toBe(400);
  });
});

describe('deep numbered pages', () => {
  test('a filtered deep page starts exactly where paging by cursor gets to', async () => {
    const user = await signedInUser();
    for (let batch = 0; batch < 8; batch++) {
      await upload(
        user.token,
        Array.from({ length: 32 }, (_, i) => ({
          fileName: `f${batch}-${i}`,
          type: i % 2 ? 'image/png' : 'application/zip',
          content: Buffer.alloc(1 + ((i * 37) % 50)),
        })),
      );
    }
    for (const sortBy of ['createdAt', 'size', 'favorite']) {
      const viaCursor: string[] = [];
      let cursor: string | undefined;
      do {
        const response = await call(
          'GET',
          `/api/user/files?filter=dashboard&sortBy=${sortBy}&perpage=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { token: user.token },
        );
        viaCursor.push(...response.body.page.map((file: FileResource) => file.id));
        cursor = response.headers['x-next-cursor'];
      } while (cursor);
      expect(viaCursor).toHaveLength(128);
      // Page 12 of 10 skips 110 matches: counted in bulk first, the last stretch entry by entry.
      const deep = await call('GET', `/api/user/files?filter=dashboard&sortBy=${sortBy}&perpage=10&page=12`, {
        token: user.token,
      });
      expect(deep.body.total).toBe(128);
      expect(deep.body.page.map((file: FileResource) => file.id)).toEqual(viaCursor.slice(110, 120));
      const unfiltered = await call('GET', `/api/user/files?sortBy=${sortBy}&perpage=25&page=11`, {
        token: user.token,
      });
      expect(unfiltered.body.page).toHaveLength(6);
    }
  });
});
