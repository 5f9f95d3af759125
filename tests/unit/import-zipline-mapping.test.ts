import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readExportFile, snapshotOfExport } from '../../tools/import-zipline/export-file.ts';
import {
  fileBody,
  folderBody,
  protection,
  tagBody,
  tagColor,
  urlBody,
  userBody,
  viewSettings,
} from '../../tools/import-zipline/mapping.ts';

/**
 * The Zipline → import-route mapping, field by field, on a server export (format 4) captured from the
 * real Zipline 4 build (tests/fixtures/zipline-v4/README.md says how).
 */
const fixture = join(import.meta.dirname, '..', 'fixtures', 'zipline-v4');
const exportPath = join(fixture, 'export.json');
const raw = JSON.parse(readFileSync(exportPath, 'utf8'));

test('every row of the export is read, user password hashes left out', async () => {
  const snapshot = await readExportFile(exportPath);
  expect(snapshot.users.map((user) => [user.username, user.role])).toEqual([
    ['owner', 'SUPERADMIN'],
    ['alice', 'USER'],
    ['bob', 'ADMIN'],
  ]);
  expect([
    snapshot.folders.length,
    snapshot.tags.length,
    snapshot.urls.length,
    snapshot.files.length,
  ]).toEqual([2, 3, 6, 7]);
  const text = JSON.stringify(snapshot);
  for (const user of raw.data.users) expect(text).not.toContain(user.password);
});

test('no body sent to the target carries an argon2 hash', async () => {
  const snapshot = await readExportFile(exportPath);
  const known = { folder: () => true, tag: () => true };
  const bodies = [
    ...snapshot.users.map((user) => userBody(user, false).body),
    ...snapshot.urls.map(urlBody),
    ...snapshot.files.map((file) => fileBody(file, known).body),
  ];
  expect(JSON.stringify(raw.data)).toContain('$argon2');
  expect(JSON.stringify(bodies)).not.toContain('$argon2');
});

test('users: username, role, view settings, quota, avatar, creation date; never a password or TOTP secret', async () => {
  const { users } = await readExportFile(exportPath);
  const [owner, alice, bob] = users.map((user) => userBody(user, false));
  expect(owner?.body).toEqual({
    username: 'owner',
    role: 'SUPERADMIN',
    view: { embed: true, content: 'hi', enabled: true, embedColor: '#ff8800', embedTitle: 'owner files' },
    quota: null,
    avatar: null,
    createdAt: raw.data.users[0].createdAt,
  });
  expect(alice?.body.avatar).toBe(raw.data.users[1].avatar);
  expect(alice?.body.avatar).toMatch(/^data:image\/png;base64,/);
  expect(bob?.body.quota).toEqual({ filesQuota: 'BY_BYTES', maxBytes: '10gb', maxFiles: null, maxUrls: 50 });
  expect(Object.keys(bob?.body ?? {})).not.toContain('password');
  expect(userBody(users[1] as never, true).body).toMatchObject({ adoptExisting: true });
});

test('an avatar over the 1 MiB the target takes is dropped and said; a bare base64 avatar becomes a data URL', () => {
  const user = {
    id: 'u',
    username: 'x',
    role: 'USER' as const,
    view: {},
    quota: null,
    createdAt: '2024-01-01T00:00:00.000Z',
  };
  const big = userBody({ ...user, avatar: `data:image/png;base64,${'A'.repeat(1024 * 1024)}` }, false);
  expect(big.body.avatar).toBeNull();
  expect(big.dropped[0]).toMatch(/avatar/);
  expect(userBody({ ...user, avatar: 'iVBORw0KGgo=' }, false).body.avatar).toBe(
    'data:image/png;base64,iVBORw0KGgo=',
  );
});

test('view settings keep set strings and booleans only (Zipline leaves unset ones null)', () => {
  expect(
    viewSettings({ enabled: true, content: null, align: 'center', embedColor: undefined, x: 3 }),
  ).toEqual({
    enabled: true,
    align: 'center',
  });
});

test('folders and tags: owner, name, public, allowUploads, colour as #rrggbb, creation date', async () => {
  const { folders, tags } = await readExportFile(exportPath);
  expect(folders.map(folderBody)).toEqual(
    raw.data.folders.map((folder: Record<string, unknown>) => ({
      owner: folder.userId,
      name: folder.name,
      public: folder.public,
      allowUploads: false,
      createdAt: folder.createdAt,
    })),
  );
  expect(tags.map(tagBody)).toEqual([
    {
      owner: raw.data.userTags[0].userId,
      name: 'red',
      color: '#ff0000',
      createdAt: raw.data.userTags[0].createdAt,
    },
    {
      owner: raw.data.userTags[1].userId,
      name: 'Blue',
      color: '#0000ff',
      createdAt: raw.data.userTags[1].createdAt,
    },
    {
      owner: raw.data.userTags[2].userId,
      name: 'work',
      color: '#00aa00',
      createdAt: raw.data.userTags[2].createdAt,
    },
  ]);
  expect([tagColor(null), tagColor('red'), tagColor('#ABC')]).toEqual(['#868e96', '#868e96', '#aabbcc']);
});

test('short links: code, vanity, destination, views, max views, enabled; a protected one stays protected, its argon2 hash stays here', async () => {
  const { urls } = await readExportFile(exportPath);
  const bodies = urls.map(urlBody);
  const docs = bodies.find((body) => body.vanity === 'docs');
  expect(docs).toEqual({
    owner: raw.data.users[0].id,
    code: raw.data.urls[1].code,
    vanity: 'docs',
    destination: 'https://example.com/docs',
    views: 3,
    maxViews: null,
    enabled: true,
    password: null,
    createdAt: raw.data.urls[1].createdAt,
  });
  expect(bodies.find((body) => body.destination.endsWith('/limited'))?.maxViews).toBe(5);
  const hidden = bodies.find((body) => body.vanity === 'hidden');
  expect(raw.data.urls[3].password).toMatch(/^\$argon2/);
  expect(hidden?.password).toBe(true);
  expect(bodies.find((body) => body.vanity === 'Mixed-Case')?.code).toBe(raw.data.urls[4].code);
});

test('passwords: none stays none, bcrypt passes (it still works here), anything else is `true` (locked)', () => {
  const bcrypt = '$2b$10$abcdefghijklmnopqrstuuJ2k1h5dQ0Ea1q1Z1X3n2o0mZ9k8Z5a';
  expect([protection(null), protection(true), protection(bcrypt), protection('$argon2id$v=19$x')]).toEqual([
    null,
    true,
    bcrypt,
    true,
  ]);
});

test('files: public name, original name, type, size, views, max views, expiry, favourite, password, folder, tags, date', async () => {
  const { files } = await readExportFile(exportPath);
  const known = { folder: () => true, tag: () => true };
  const byName = new Map(files.map((file) => [file.name, fileBody(file, known).body]));
  const [notes, limited, expiring, secret, photo, binary] = raw.data.files;
  expect(byName.get(photo.name)).toEqual({
    owner: photo.userId,
    name: photo.name,
    originalName: 'photo.png',
    type: 'image/png',
    size: 70,
    views: 0,
    maxViews: null,
    deletesAt: null,
    favorite: true,
    password: null,
    folder: photo.folderId,
    tags: [raw.data.userTags[0].id, raw.data.userTags[1].id],
    createdAt: photo.createdAt,
  });
  expect(byName.get(notes.name)).toMatchObject({
    originalName: 'notes.txt',
    tags: [raw.data.userTags[1].id],
  });
  expect(byName.get(limited.name)?.maxViews).toBe(3);
  expect(byName.get(expiring.name)?.deletesAt).toBe(expiring.deletesAt);
  expect(byName.get(secret.name)?.password).toBe(true);
  expect(byName.get(binary.name)).toMatchObject({ size: 70000, views: 1, type: 'application/octet-stream' });
});

test('a file whose folder or tags were not imported goes without them, and says so', async () => {
  const { files } = await readExportFile(exportPath);
  const photo = files.find((file) => file.folderId) as (typeof files)[number];
  const mapped = fileBody(photo, { folder: () => false, tag: (id) => id === photo.tagIds[0] });
  expect(mapped.body.folder).toBeNull();
  expect(mapped.body.tags).toEqual([photo.tagIds[0]]);
  expect(mapped.dropped).toEqual([`folder ${photo.folderId} (not imported)`, '1 tag(s) not imported']);
});

test('a document that is not a v4 export is refused with where it differs', () => {
  expect(() => snapshotOfExport({ ...raw, versions: { ...raw.versions, export: '3' } })).toThrow(
    /not a Zipline v4 server export: versions.export/,
  );
  const noUsers = { ...raw, data: { ...raw.data, users: [{ id: 'x' }] } };
  expect(() => snapshotOfExport(noUsers)).toThrow(/data.users.0/);
});

test('files and links whose Zipline user was deleted are noted, not moved', () => {
  const orphan = { ...raw.data.files[0], id: 'orphan', userId: null };
  const snapshot = snapshotOfExport({ ...raw, data: { ...raw.data, files: [...raw.data.files, orphan] } });
  expect(snapshot.files.map((file) => file.id)).not.toContain('orphan');
  expect(snapshot.notes).toContain(
    '1 file(s) without an owner in Zipline (their user was deleted) are not moved',
  );
});
