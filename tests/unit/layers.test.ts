import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The house rule on imports, checked on the code as it is: layers point one way, `functions →
 * shared/{http, auth, validation} → shared/<entity> → shared/db`, secrets and config at the bottom, and
 * no file imports itself through others. Each folder (or top-level file) of shared/ has a rank; an
 * import must go to a lower rank, or stay inside its own folder. Folders of one rank never import
 * each other (users and files are peers: neither knows the other).
 */
const RANKS: Record<string, number> = {
  functions: 10,
  // The route table (shared/routes/: its lines, their grants, CORS, background functions, matching)
  // for CDK, the local runner and the tests; it reads the Zipline header table and the safe methods
  // from http, the index names from db and files.
  routes: 9,
  // The thumbnail function's work, started by S3 rather than a route: it checks the object key it
  // is given (validation) before it reads and records files, as a handler would.
  thumbnails: 9,
  // Sign-in with a provider: the flow above the session module (auth), the request view (http) and
  // the provider links it reads and writes (users).
  oauth: 9,
  // The public view page, in one folder: what it shows of a file and its owner, rendered, and the
  // HTTP answer (URLs, refusal pages) built from the request view below it.
  view: 8,
  // Above the entities: what a request does with them.
  auth: 8,
  validation: 8,
  accounts: 8,
  // The request view and responses; auth reads requests, validation reports through `validate`.
  http: 7,
  // The Zipline import (issue 40): users, folders, tags, links and files created with their mapping items.
  import: 7,
  // Tags (issue 35): a user's tags, above the files whose memberships they clean up when deleted.
  tags: 6,
  // Passkeys (issue 15): the WebAuthn ceremonies and credentials, above the users they belong to.
  passkeys: 6,
  // Folders (issue 35): above the files they hold (moves, a folder's deletion and listing).
  folders: 6,
  // Webhooks (issue 38): what an upload or a short link announces, above the files and links it
  // describes and the settings naming its targets; http announces, validation checks a target's URL.
  webhooks: 6,
  // Second factors (TOTP): their secrets, codes and storage on the user item; auth checks them at login.
  mfa: 6,
  // Instance metrics (issue 36): the daily figures, read from the users, files and links below.
  metrics: 6,
  // Exports (issue 36): a zip of a user's files and their metadata, above the files it reads.
  exports: 6,
  // Entities, and what stands beside them.
  users: 5,
  files: 5,
  // Short links (issue 34): beside users and files, never importing them.
  links: 5,
  health: 5,
  throttle: 4,
  // Run-time server settings (issue 38): one item every entity may apply (upload limits, defaults).
  settings: 4,
  // View counting (issues 34, 36): the sharded counters of popular links and files and the owners'
  // view totals, below the links and files that count on them and the stats that read them.
  views: 4,
  // Invites (issue 38): codes and their use counter, which a new user's transaction (users) counts.
  invites: 4,
  // Storage.
  db: 3,
  s3: 3,
  // The bottom: the service's secrets (master keys and what is derived from them).
  secrets: 2,
  // A user's quota: its limits and the 413 (errors) its check and the file writes give.
  quota: 2,
  config: 1,
  // The logger and metrics every layer may write to (they import nothing of the service).
  log: 1,
  errors: 1,
  // Running storage calls a few at a time (imports nothing).
  concurrency: 1,
  version: 1,
};

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `shared/files/record/store.ts` → `files`; `shared/routes/table.ts` → `routes`; `functions/...` → `functions`. */
function layerOf(file: string): string {
  const [top, second] = file.split('/');
  if (top === 'functions') return 'functions';
  return (second as string).replace(/\.ts$/, '');
}

/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`. */
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)'(#shared\/[^']+|\.{1,2}\/[^']+)'/g;

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => {
    const target = match[1] as string;
    const path = target.startsWith('#shared/')
      ? `shared/${target.slice('#shared/'.length)}`
      : relative(root, join(root, file, '..', target));
    return path.endsWith('.ts') ? path : `${path}.ts`;
  });
}

const files = [...sourceFiles('shared'), ...sourceFiles('functions')];
const graph = new Map(files.map((file) => [file, importsOf(file)]));

test('every folder of shared/ has a rank', () => {
  expect(files.map(layerOf).filter((layer) => RANKS[layer] === undefined)).toEqual([]);
});

test('imports point down the layers', () => {
  const upward = [...graph].flatMap(([file, imports]) =>
    imports.flatMap((target) => {
      const [from, to] = [layerOf(file), layerOf(target)];
      return from === to || (RANKS[from] as number) > (RANKS[to] as number) ? [] : [`${file} -> ${target}`];
    }),
  );
  expect(upward).toEqual([]);
});

test('handlers reach storage only through shared/<entity>', () => {
  const direct = [...graph].flatMap(([file, imports]) =>
    file.startsWith('functions/')
      ? imports
          .filter((target) => ['db', 's3'].includes(layerOf(target)))
          .map((target) => `${file} -> ${target}`)
      : [],
  );
  expect(direct).toEqual([]);
});

test('no file imports itself through others', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  expect(cycles).toEqual([]);
});

test('the request view (shared/http) stands below the page it answers with: no http file imports view/', () => {
  expect(RANKS.view).toBeGreaterThan(RANKS.http as number);
  const upward = [...graph].flatMap(([file, imports]) =>
    layerOf(file) === 'http' ? imports.filter((target) => layerOf(target) === 'view') : [],
  );
  expect(upward).toEqual([]);
});

test('the check sees the imports (a file known to import is read as importing)', () => {
  expect(graph.get('functions/health/check.ts')).toContain('shared/health.ts');
  expect(graph.get('shared/users/store.ts')).toContain('shared/db/client.ts');
});

/**
 * Indexes are named by the query they serve (`USERS_INDEX`, `EXPIRY_INDEX`, `FILE_ORDER_INDEXES`…
 * in shared/db/keys/); the generic `gsiN` names and their `gsiNpk`/`gsiNsk` attributes are the
 * storage layer's, and appear nowhere else in the service's code (comments included).
 */
const GENERIC_INDEX_NAME = /\bgsi\d/;
test('only shared/db spells the generic index names (gsiN)', () => {
  const spelling = files.filter(
    (file) =>
      !file.startsWith('shared/db/') && GENERIC_INDEX_NAME.test(readFileSync(join(root, file), 'utf8')),
  );
  expect(spelling).toEqual([]);
});

test('the index check sees the names (shared/db spells them)', () => {
  expect(GENERIC_INDEX_NAME.test(readFileSync(join(root, 'shared/db/keys/files.ts'), 'utf8'))).toBe(true);
});

/**
 * The table is named by shared/db alone (`inTable`, the table calls, `transactWrite`), and update
 * expressions are written by the one builder (`UpdateBuilder`): an entity's module says what to change,
 * never how DynamoDB spells it. Features added later (links, exports, tags, invites) had drifted back
 * to both.
 */
const STORAGE_SPELLINGS = [/\bTableName\b/, /\bUpdateExpression\b/];
test('only shared/db names the table or writes an update expression', () => {
  const spelling = files.filter((file) => {
    if (file.startsWith('shared/db/')) return false;
    const text = readFileSync(join(root, file), 'utf8');
    return STORAGE_SPELLINGS.some((pattern) => pattern.test(text));
  });
  expect(spelling).toEqual([]);
});

/**
 * Nor does any other module send a command itself: the table calls (table-calls.ts, reads.ts,
 * `getItem`, `transactWrite`) are the one way to the table, so a fault, a retry or a cost is
 * handled in one place. Types from the SDK are fine.
 */
const SENDS_ITS_OWN = [
  /^import \{[^}]*\b(?!type )\w*(Command|paginate\w+)\b[^}]*\} from '@aws-sdk\/(lib|client)-dynamodb'/m,
  /\b(documents|inTable|onTable|ofTable|tableName)\b[^;]*from '#shared\/db\/client'/,
];
test('only shared/db sends DynamoDB commands or names the table', () => {
  const sending = files.filter((file) => {
    if (file.startsWith('shared/db/') || !file.startsWith('shared/')) return false;
    const text = readFileSync(join(root, file), 'utf8');
    return SENDS_ITS_OWN.some((pattern) => pattern.test(text));
  });
  expect(sending).toEqual([]);
  const calls = readFileSync(join(root, 'shared/db/table-calls.ts'), 'utf8');
  expect(SENDS_ITS_OWN.map((pattern) => pattern.test(calls))).toEqual([true, true]);
});

/** Transaction items too are the table calls' (`putIn`, `updateIn`, `deleteIn`, `checkIn`), never spelled out. */
const HAND_SPELLED_ITEM = /\b(Put|Update|Delete|ConditionCheck): \{\s*(Item|Key)\b/;
test('only shared/db spells a transaction item', () => {
  const spelling = files.filter(
    (file) =>
      file.startsWith('shared/') &&
      !file.startsWith('shared/db/') &&
      HAND_SPELLED_ITEM.test(readFileSync(join(root, file), 'utf8')),
  );
  expect(spelling).toEqual([]);
  expect(HAND_SPELLED_ITEM.test('{\n  Delete: {\n    Key: key,')).toBe(true);
  // An S3 DeleteObjects request is not a transaction item.
  expect(HAND_SPELLED_ITEM.test('Delete: { Objects: keys, Quiet: true }')).toBe(false);
});

/** An update's condition is the builder's (`when`): one spelled after `build()` would drop the builder's own. */
const CONDITION_AFTER_BUILD = /\.build\(\),\s*ConditionExpression\b/;
test("no update's condition is written over its builder's", () => {
  const overriding = files.filter((file) =>
    CONDITION_AFTER_BUILD.test(readFileSync(join(root, file), 'utf8')),
  );
  expect(overriding).toEqual([]);
  expect(CONDITION_AFTER_BUILD.test('{ ...update.build(),\n  ConditionExpression: condition }')).toBe(true);
});

test('the storage spelling check sees the spellings (shared/db has both)', () => {
  const text = (file: string) => readFileSync(join(root, file), 'utf8');
  expect(STORAGE_SPELLINGS.map((pattern) => pattern.test(text('shared/db/expressions/update.ts')))).toEqual([
    false,
    true,
  ]);
  expect((STORAGE_SPELLINGS[0] as RegExp).test(text('shared/db/client.ts'))).toBe(true);
});
