import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAFE_METHODS } from '#shared/http/methods';
import { ACCESS } from '#shared/routes/access';
import { ACCOUNT_ACCESS } from '#shared/routes/access/accounts';
import { FILE_ACCESS } from '#shared/routes/access/files';
import { IMPORT_ACCESS } from '#shared/routes/access/import';
import { INSTANCE_ACCESS } from '#shared/routes/access/instance';
import { LIBRARY_ACCESS } from '#shared/routes/access/library';
import { LINK_ACCESS } from '#shared/routes/access/links';
import { type Area, checksOrigin } from '#shared/routes/route';
import { routes } from '#shared/routes/table';

const tableText = readFileSync(join(import.meta.dirname, '..', '..', 'shared', 'routes', 'table.ts'), 'utf8');
const rows = routes.map((route) => [`${route.method} ${route.path}`, route] as const);

test.each(rows)('%s is one line of the table, found by a search for its method and path', (_, route) => {
  const lines = tableText
    .split('\n')
    .filter((line) => line.includes(`route('${route.method}', '${route.path}',`));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`'${route.handler}', '${route.caller}', '${route.body}', '${route.area}'`);
});

test('a signed-in or admin route reads the keys and its caller; a public one only where its line says so', () => {
  for (const route of routes) {
    if (route.caller === 'public') continue;
    expect([route.handler, route.usesKeys, route.table?.items?.GetItem]).toEqual([
      route.handler,
      true,
      expect.arrayContaining(['USER']),
    ]);
  }
  const publicWithKeys = routes.filter((route) => route.caller === 'public' && route.usesKeys);
  expect(publicWithKeys.map((route) => route.handler).sort()).toEqual([
    'auth/login',
    'auth/oauth-callback',
    'auth/oauth-start',
    'auth/passkey-sign-in',
    // Registration (issue 38) signs the new account in.
    'auth/register',
    'auth/totp',
  ]);
});

test('the CSRF check guards exactly the cookie-authenticated writes', () => {
  for (const route of routes) {
    expect(checksOrigin(route)).toBe(route.caller !== 'public' && !SAFE_METHODS.has(route.method));
  }
  // A body is read only by writes.
  expect(routes.filter((route) => SAFE_METHODS.has(route.method) && route.body !== 'none')).toEqual([]);
});

test('each route sits in the area of its handler folder (issue 32’s nested stacks)', () => {
  const areaOf = (handler: string): Area => {
    if (handler === 'files/raw' || handler.startsWith('view/')) return 'public';
    if (handler.startsWith('files/') || handler.startsWith('folders/') || handler.startsWith('tags/'))
      return 'files';
    if (handler.startsWith('users/') || handler.startsWith('metrics/')) return 'admin';
    // The Zipline import (issue 40): a SUPERADMIN's, as the instance's settings.
    if (handler.startsWith('import/')) return 'admin';
    // The instance's settings and invites (issue 38); registration and the public settings stay in account.
    if (handler.startsWith('server/settings') || handler.startsWith('invites/')) return 'admin';
    if (handler.startsWith('links/')) return 'links';
    return 'account';
  };
  expect(routes.filter((route) => route.area !== areaOf(route.handler))).toEqual([]);
  expect(new Set(routes.map((route) => route.handler.split('/')[0]))).toEqual(
    new Set([
      'health',
      'server',
      'setup',
      'auth',
      'user',
      'users',
      'files',
      'view',
      'links',
      'invites',
      'metrics',
      'folders',
      'tags',
      'import',
    ]),
  );
});

test('a table access name is declared by one area of shared/routes/access/ only (a spread would hide a second)', () => {
  const parts = [ACCOUNT_ACCESS, FILE_ACCESS, LINK_ACCESS, INSTANCE_ACCESS, LIBRARY_ACCESS, IMPORT_ACCESS];
  const names = parts.flatMap((part) => Object.keys(part));
  expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  expect(Object.keys(ACCESS)).toHaveLength(names.length);
});
