import { randomBytes } from 'node:crypto';
import { hashPassword } from '#shared/auth/password';
import { forEachConcurrently } from '#shared/concurrency';
import { createUser } from '#shared/users/creation';
import { type CallOptions, call } from '../tests/support/client.ts';
import { multipart } from '../tests/support/multipart.ts';
import { attribute, type KeyUnits, type recordCapacity } from './capacity.ts';
import { freshSessionCookie } from './fixtures.ts';
import { emptyStats, fillLibrary } from './library.ts';

/**
 * The workload `npm run simulate` drives through the handlers (the route table's dispatch, with the
 * payload-2.0 events API Gateway sends): many users, a few heavy ones, a mix of what they do. Which
 * user and what action come from a seeded generator, so a run is repeatable.
 */

export const ACTIONS = [
  'login',
  'userRead',
  'upload',
  'uploadExpiring',
  'list',
  'listSorted',
  'search',
  'view',
  'delete',
] as const;
export type Action = (typeof ACTIONS)[number];

export interface Workload {
  /** Users besides the heavy ones; they share what the heavy ones leave evenly. */
  users: number;
  /** Heavy users: each makes `share` of all requests and starts with `libraryFiles` files. */
  heavy: { count: number; share: number; libraryFiles: number };
  requests: number;
  /** Relative weights of the actions (any scale). */
  mix: Record<Action, number>;
  /** Requests in flight at once. */
  concurrency: number;
  seed: number;
}

/** The default mix: reads dominate; uploads a sixth; the public's downloads of users' links a quarter. */
export const REALISTIC_MIX: Record<Action, number> = {
  login: 2,
  userRead: 30,
  upload: 14,
  uploadExpiring: 2,
  list: 15,
  listSorted: 4,
  search: 3,
  view: 25,
  delete: 5,
};

const PASSWORD = 'correct horse battery staple';
const SORTS = ['name', 'size', 'views', 'deletesAt', 'favorite', 'updatedAt'];

/** A small, seeded generator (mulberry32): repeatable runs without Math.random. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface SimUser {
  id: string;
  username: string;
  cookie: string;
  token: string;
  /** Each user signs in from an address of its own (the login throttle counts per address). */
  sourceIp: string;
  /** Public names of its files (views pick one); deletions take one out first. */
  files: { id: string; name: string }[];
}

async function makeUser(index: number, passwordHash: string, tag: string): Promise<SimUser> {
  const username = `sim-${tag}-${index}`;
  const user = await createUser({ username, passwordHash, role: 'USER' });
  const cookie = await freshSessionCookie(user.id);
  const token = (await call('GET', '/api/user/token', { cookie })).body.token as string;
  const sourceIp = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  return { id: user.id, username, cookie, token, sourceIp, files: [] };
}

function uploadOptions(user: SimUser, expiring: boolean): CallOptions {
  const { body, contentType } = multipart([
    { fileName: 'screenshot.png', type: 'image/png', content: randomBytes(2048) },
  ]);
  return {
    token: user.token,
    raw: body,
    sourceIp: user.sourceIp,
    headers: { 'content-type': contentType, ...(expiring ? { 'x-zipline-deletes-at': '7d' } : {}) },
  };
}

/** One request of `action` by `user`: its status must be the expected one. */
async function perform(action: Action, user: SimUser, random: () => number): Promise<void> {
  const as = { cookie: user.cookie, sourceIp: user.sourceIp };
  const expect = (status: number, response: { status: number; text: string }) => {
    // A view may race a deletion of the same file (its 404 is the right answer then).
    if (response.status !== status && !(action === 'view' && response.status === 404))
      throw new Error(`${action}: ${response.status} ${response.text.slice(0, 200)}`);
  };
  switch (action) {
    case 'login':
      return expect(
        200,
        await call('POST', '/api/auth/login', {
          json: { username: user.username, password: PASSWORD },
          sourceIp: user.sourceIp,
        }),
      );
    case 'userRead':
      return expect(200, await call('GET', '/api/user', as));
    case 'upload':
    case 'uploadExpiring': {
      const response = await call('POST', '/api/upload', uploadOptions(user, action === 'uploadExpiring'));
      expect(200, response);
      const file = response.body.files[0] as { id: string; url: string };
      user.files.push({
        id: file.id,
        name: decodeURIComponent(new URL(file.url).pathname.split('/').pop() ?? ''),
      });
      return;
    }
    case 'list':
      return expect(200, await call('GET', '/api/user/files?perpage=25', as));
    case 'listSorted': {
      const sortBy = SORTS[Math.floor(random() * SORTS.length)];
      const order = random() < 0.5 ? 'asc' : 'desc';
      return expect(200, await call('GET', `/api/user/files?perpage=25&sortBy=${sortBy}&order=${order}`, as));
    }
    case 'search':
      return expect(
        200,
        await call('GET', '/api/user/files?perpage=25&searchField=originalName&searchQuery=shot', as),
      );
    case 'view': {
      const file = user.files[Math.floor(random() * user.files.length)];
      // Another request took the user's last file meanwhile (rare: the plan checked for one).
      if (!file) return perform('upload', user, random);
      return expect(
        200,
        await call('GET', `/raw/${encodeURIComponent(file.name)}`, { sourceIp: '198.51.100.1' }),
      );
    }
    case 'delete': {
      const [file] = user.files.splice(Math.floor(random() * user.files.length), 1);
      if (!file) return perform('upload', user, random);
      return expect(200, await call('DELETE', `/api/user/files/${file.id}`, as));
    }
  }
}

export interface SimulationRun {
  workload: Workload;
  /** Requests made of each action (a user with no file to view or delete uploads one instead). */
  counts: Record<Action, number>;
  units: KeyUnits[];
  /** Units per request of each action, read and write, table and indexes together. */
  perAction: Record<string, { requests: number; read: number; write: number }>;
  userIds: { heavy: string[] };
}

/**
 * Sets up the users (unrecorded), then makes `workload.requests` requests, `concurrency` at a time,
 * recording what each cost. `recorder` must have been started before the service's first request.
 */
export async function simulate(
  workload: Workload,
  recorder: ReturnType<typeof recordCapacity>,
  progress: (what: string) => void = () => {},
): Promise<SimulationRun> {
  const random = generator(workload.seed);
  const passwordHash = await hashPassword(PASSWORD);
  const tag = randomBytes(3).toString('hex');
  progress(`creating ${workload.users} users and ${workload.heavy.count} heavy ones`);
  const users: SimUser[] = [];
  await forEachConcurrently(
    Array.from({ length: workload.users + workload.heavy.count }, (_, index) => index),
    8,
    async (index) => {
      users[index] = await makeUser(index, passwordHash, tag);
    },
  );
  const heavy = users.slice(workload.users);
  for (const user of heavy) await fillLibrary(user.id, 0, workload.heavy.libraryFiles, emptyStats());

  const plan = Array.from({ length: workload.requests }, () => {
    const heavyShare = workload.heavy.count * workload.heavy.share;
    const pick = random();
    const user =
      pick < heavyShare
        ? (heavy[Math.floor(pick / workload.heavy.share)] as SimUser)
        : (users[Math.floor(random() * workload.users)] as SimUser);
    return { user, action: pickAction(workload.mix, random()) };
  });
  const counts = Object.fromEntries(ACTIONS.map((action) => [action, 0])) as Record<Action, number>;
  recorder.reset();
  progress(`making ${workload.requests} requests, ${workload.concurrency} at a time`);
  let done = 0;
  await forEachConcurrently(plan, workload.concurrency, async (planned) => {
    const { user } = planned;
    // A user with no file of its own to view or delete uploads one instead.
    const action =
      ['view', 'delete'].includes(planned.action) && user.files.length === 0 ? 'upload' : planned.action;
    counts[action]++;
    await recorder.run(action, () => perform(action, user, random));
    if (++done % 500 === 0) progress(`${done} of ${workload.requests} requests`);
  });

  const units: KeyUnits[] = [];
  const perAction: SimulationRun['perAction'] = {};
  for (const recorded of recorder.calls) {
    const action = recorded.observed?.before.tag ?? 'setup';
    const entry = perAction[action] ?? { requests: counts[action as Action] ?? 0, read: 0, write: 0 };
    perAction[action] = entry;
    for (const spent of attribute(recorded)) {
      units.push(spent);
      entry[spent.kind] += spent.units;
    }
  }
  for (const entry of Object.values(perAction)) {
    entry.read = entry.requests ? entry.read / entry.requests : 0;
    entry.write = entry.requests ? entry.write / entry.requests : 0;
  }
  return { workload, counts, units, perAction, userIds: { heavy: heavy.map((user) => user.id) } };
}

function pickAction(mix: Record<Action, number>, draw: number): Action {
  const total = ACTIONS.reduce((sum, action) => sum + mix[action], 0);
  let left = draw * total;
  for (const action of ACTIONS) {
    left -= mix[action];
    if (left < 0) return action;
  }
  return 'userRead';
}
