import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '#shared/routes/table';

// docs/api.md is the API reference: its route index names every route of the route table, and only
// those, so a route added, moved or removed without its line in the reference fails here.
const reference = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** `METHOD path` for each route a row of a table names: `| GET, PATCH | \`/api/user\` ... |`. */
function documentedRoutes(markdown: string): Set<string> {
  const documented = new Set<string>();
  for (const line of markdown.split('\n')) {
    const [, methodCell, pathCell] = line.split('|').map((cell) => cell.trim());
    const methods = methodCell?.split(/,\s*/) ?? [];
    const path = pathCell?.match(/^`([^`?\s]+)/)?.[1];
    if (!path || methods.length === 0 || !methods.every((method) => METHODS.has(method))) continue;
    for (const method of methods) documented.add(`${method} ${path}`);
  }
  return documented;
}

const tableRoutes = routes.map((route) => `${route.method} ${route.path}`);
const documented = documentedRoutes(reference);

test.each(tableRoutes)('docs/api.md documents %s', (route) => {
  expect(documented).toContain(route);
});

test('docs/api.md documents no route the route table lacks', () => {
  expect([...documented].filter((route) => !tableRoutes.includes(route))).toEqual([]);
});

test('the reader finds a route in a row, and not in prose or a row of another table', () => {
  const sample = [
    '| GET, PATCH | `/api/user` `{username?}` | signed-in |',
    '| Header | `x-zipline-format` |',
    'GET `/api/version` in a sentence',
  ].join('\n');
  expect([...documentedRoutes(sample)]).toEqual(['GET /api/user', 'PATCH /api/user']);
});
