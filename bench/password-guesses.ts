import { randomBytes } from 'node:crypto';
import { multipart } from '../tests/support/multipart.ts';
import { adminToken, startAsUsersDo } from './npm-start.ts';

/**
 * What a file-password guess costs under `npm start`, for a protected name and an unknown one
 * (issue 29.6): `npx tsx bench/password-guesses.ts [samples]`. Two runners, as users start them,
 * each with one limit raised so that only the path measured is taken (every request comes from
 * 127.0.0.1, one address):
 *
 * - refused: each name's own limit used up, and this address's few checks at it too, so every
 *   request is a 429 (on `/raw?pw=` and on the view page's form);
 * - wrong: per-name limits raised, so every request is a wrong password checked by bcrypt (404).
 *
 * Samples alternate between the two names, so drift in the machine's load falls on both alike.
 */
const SAMPLES = Number(process.argv[2] ?? 150);
const SECRET = 'open sesame';
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function protectedName(url: string, token: string): Promise<string> {
  await fetch(`${url}/api/user`, {
    method: 'PATCH',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ view: { enabled: true } }),
  });
  const { body, contentType } = multipart([{ fileName: 'secret.png', type: 'image/png', content: PNG_1X1 }]);
  const uploaded = await fetch(`${url}/api/upload`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': contentType, 'x-zipline-password': SECRET },
    body,
  });
  const { files } = (await uploaded.json()) as { files: { name: string }[] };
  return files[0]?.name as string;
}

type Guess = (name: string, password: string) => Promise<{ status: number; ms: number }>;

const timed = async (request: () => Promise<Response>) => {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
};

const guesses = (url: string): Record<'raw' | 'form', Guess> => ({
  raw: (name, password) =>
    timed(() => fetch(`${url}/raw/${name}?pw=${encodeURIComponent(password)}`, { redirect: 'manual' })),
  form: (name, password) =>
    timed(() =>
      fetch(`${url}/view/${name}`, {
        method: 'POST',
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      }),
    ),
});

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const summary = (values: number[]) =>
  `median ${quantile(values, 0.5).toFixed(2)} ms, p90 ${quantile(values, 0.9).toFixed(2)} ms`;

/** `SAMPLES` requests at each name, alternating; every answer must be `status`. */
async function compare(
  label: string,
  guess: Guess,
  names: { known: string; unknown: string },
  status: number,
) {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let sample = 0; sample < SAMPLES; sample++) {
    const order = sample % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const which of order) {
      const answer = await guess(names[which], `guess ${sample}`);
      if (answer.status !== status) throw new Error(`${label} ${which}: ${answer.status}, not ${status}`);
      times[which].push(answer.ms);
    }
  }
  console.log(`${label}: protected ${summary(times.known)}; unknown ${summary(times.unknown)}`);
}

const unknownName = () => `missing-${randomBytes(6).toString('hex')}.png`;

// Refused: the defaults but for the address's own limit (one address sends everything).
{
  const service = await startAsUsersDo({ FILE_PASSWORD_LIMIT_PER_ADDRESS: '100000' });
  try {
    const token = await adminToken(service.url);
    const names = { known: await protectedName(service.url, token), unknown: unknownName() };
    const guess = guesses(service.url);
    for (const name of Object.values(names)) {
      // The name's limit, then the address's checks at the throttled name: 429 from then on.
      for (let attempt = 0; attempt < 10 + 3; attempt++) await guess.raw(name, `warm ${attempt}`);
    }
    await compare('refused (429), /raw?pw=', guess.raw, names, 429);
    await compare('refused (429), view form', guess.form, names, 429);
  } finally {
    await service.stop();
  }
}

// Wrong: every guess checked (bcrypt at the runner's cost), no limit in the way.
{
  const service = await startAsUsersDo({
    FILE_PASSWORD_LIMIT_PER_ADDRESS: '100000',
    FILE_PASSWORD_LIMIT_PER_FILE: '10000',
  });
  try {
    const token = await adminToken(service.url);
    const guess = guesses(service.url);
    for (const [label, route] of [
      ['wrong password (404), /raw?pw=', guess.raw],
      ['wrong password (404), view form', guess.form],
    ] as const) {
      // Fresh names per route: each name's limit (10,000) holds the samples of one route.
      const names = { known: await protectedName(service.url, token), unknown: unknownName() };
      await compare(label, route, names, 404);
    }
  } finally {
    await service.stop();
  }
}
