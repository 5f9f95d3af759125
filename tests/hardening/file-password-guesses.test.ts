import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { jest } from '@jest/globals';

// Counts bcrypt compares while delegating to the real binding: a refused guess must do none.
const realBcrypt = createRequire(import.meta.url)('@node-rs/bcrypt') as typeof import('@node-rs/bcrypt');
const bcryptCalls = { compare: 0 };
jest.unstable_mockModule('@node-rs/bcrypt', () => ({
  ...realBcrypt,
  compare: (...args: Parameters<typeof realBcrypt.compare>) => {
    bcryptCalls.compare++;
    return realBcrypt.compare(...args);
  },
}));

const { call } = await import('../support/client.ts');
const { upload } = await import('../support/files.ts');
const { PNG_1X1 } = await import('../support/pixels.ts');
const { recordSdkCalls } = await import('../support/sdk-calls.ts');
const { signedInUser } = await import('../support/users.ts');
const { config } = await import('#shared/config/service');
const { windowTest } = await import('../support/throttle-window.ts');

const { dynamodb } = await import('#shared/db/client');

const limits = config().throttle;
// Reads as they are answered (the item reader's too); every command as it is sent, refused
// conditional writes included (the recorder sees only answered ones).
const recorder = recordSdkCalls();
const sent: string[] = [];
dynamodb.middlewareStack.add(
  (next, context) => (args) => {
    sent.push(context.commandName as string);
    return next(args);
  },
  { step: 'initialize', name: 'countSentCommands' },
);
const SECRET = 'open sesame';

let addressCounter = 0;
/** A fresh client address, so only the limit under test can trip. */
const freshAddress = () => `192.0.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;
const unknownName = () => `missing-${randomBytes(6).toString('hex')}.png`;
/** A refusal with the minutes its page names (if a page) checked against its Retry-After, then left out. */
const withoutMinutes = (text: string | undefined, retryAfter: string | undefined) => {
  const named = text?.match(/Try again in (\d+) minutes?/);
  if (named) expect(Number(named[1])).toBe(Math.max(1, Math.ceil(Number(retryAfter) / 60)));
  return text?.replace(/Try again in \d+ minutes?/, 'Try again in … minutes');
};

/** `/raw/{name}?pw=` from a client address. */
const raw = (name: string, password: string, sourceIp: string) =>
  call('GET', `/raw/${name}?pw=${encodeURIComponent(password)}`, { sourceIp });
/** The view page's password form, as a browser submits it, from a client address. */
const form = (name: string, password: string, sourceIp: string) =>
  call('POST', `/view/${name}`, {
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    raw: new URLSearchParams({ password }).toString(),
    sourceIp,
  });

/** A protected image of an owner with view pages on (so both the form and `/raw?pw=` can open it). */
async function protectedImage() {
  const owner = await signedInUser();
  await call('PATCH', '/api/user', { token: owner.token, json: { view: { enabled: true } } });
  const [file] = await upload(
    owner.token,
    [{ fileName: 'secret.png', type: 'image/png', content: PNG_1X1 }],
    {
      'x-zipline-password': SECRET,
    },
  );
  return file?.name as string;
}

/** Guesses wrong at `name` from `address` until the name's own limit is used up. */
async function throttleName(name: string, address: string) {
  for (let guess = 0; guess < limits.filePasswordPerFile; guess++)
    expect((await raw(name, `guess ${guess}`, address)).status).toBe(404);
}

/** The storage calls and bcrypt compares one request makes. */
async function costOf(request: () => ReturnType<typeof call>) {
  recorder.reset();
  sent.length = 0;
  const compares = bcryptCalls.compare;
  const response = await request();
  return {
    response,
    commands: [...sent],
    reads: recorder.calls.filter(({ command }) => /^(Get|BatchGet|Query)/.test(command)).length,
    /** Every command sent, refused writes included, and every read (the item reader's too), in order. */
    all: [
      ...sent.filter((command) => !/^(Get|BatchGet|Query)/.test(command)),
      ...recorder.calls
        .map(({ command }) => command)
        .filter((command) => /^(Get|BatchGet|Query)/.test(command)),
    ],
    compares: bcryptCalls.compare - compares,
  };
}

const TOO_MANY = { error: 'too many attempts, try again later', statusCode: 429 };

test('the defaults: 30 checks per address, 10 wrong guesses per name, 3 per address at a throttled name', () => {
  expect(limits).toMatchObject({
    filePasswordPerAddress: 30,
    filePasswordPerFile: 10,
    filePasswordPerAddressAtThrottledName: 3,
  });
});

describe('per client address', () => {
  windowTest(
    'past the limit every name is refused from that address before any read or bcrypt; other addresses are not',
    async () => {
      const name = await protectedImage();
      const address = freshAddress();
      // Each at a fresh unknown name: a new per-name counter every time, as the attacker did.
      for (let guess = 0; guess < limits.filePasswordPerAddress; guess++)
        expect((await raw(unknownName(), 'guess', address)).status).toBe(404);
      for (const request of [() => raw(name, SECRET, address), () => raw(unknownName(), 'x', address)]) {
        const refused = await costOf(request);
        expect([refused.response.status, refused.response.body]).toEqual([429, TOO_MANY]);
        expect([refused.reads, refused.compares]).toEqual([0, 0]);
        expect(refused.commands).toEqual(['UpdateItemCommand']);
      }
      // The view page's form counts in the same counter.
      const viaForm = await form(name, SECRET, address);
      expect(viaForm.status).toBe(429);
      expect(viaForm.text).toMatch(/Too many wrong passwords for this link/);
      expect((await raw(name, SECRET, freshAddress())).status).toBe(200);
      expect((await form(name, SECRET, freshAddress())).status).toBe(200);
    },
    120_000,
  );

  windowTest(
    'every bcrypt compare counts, right passwords too; a file without a password counts none',
    async () => {
      const name = await protectedImage();
      const address = freshAddress();
      for (let look = 0; look < limits.filePasswordPerAddress; look++)
        expect((await raw(name, SECRET, address)).status).toBe(200);
      expect((await raw(name, SECRET, address)).status).toBe(429);

      const owner = await signedInUser();
      const [open] = await upload(owner.token, [
        { fileName: 'open.png', type: 'image/png', content: PNG_1X1 },
      ]);
      const other = freshAddress();
      for (let look = 0; look < limits.filePasswordPerAddress + 5; look++)
        expect((await raw(open?.name as string, 'by habit', other)).status).toBe(200);
      expect((await raw(name, SECRET, other)).status).toBe(200);
    },
    120_000,
  );
});

describe("a file's own limit", () => {
  windowTest(
    "a stranger's wrong guesses do not close the file for its viewers: the right password keeps working",
    async () => {
      const name = await protectedImage();
      const stranger = freshAddress();
      await throttleName(name, stranger);
      // The name is throttled: each address gets a few checks of its own there, then only 429s.
      for (let guess = 0; guess < limits.filePasswordPerAddressAtThrottledName; guess++) {
        const checked = await costOf(() => raw(name, `more ${guess}`, stranger));
        expect([checked.response.status, checked.compares]).toEqual([429, 1]);
      }
      const refused = await costOf(() => raw(name, SECRET, stranger));
      expect([refused.response.status, refused.compares, refused.reads]).toEqual([429, 0, 0]);

      // Real viewers, from their own addresses, on both routes, as often as they like.
      const viewer = freshAddress();
      for (let look = 0; look < limits.filePasswordPerAddressAtThrottledName + 2; look++) {
        expect((await raw(name, SECRET, viewer)).status).toBe(200);
        expect((await form(name, SECRET, viewer)).status).toBe(200);
      }
      // A wrong password there is refused as the throttled name's, after its one compare.
      const typo = await costOf(() => form(name, 'open sesam', viewer));
      expect([typo.response.status, typo.compares]).toEqual([429, 1]);
      expect((await raw(name, SECRET, viewer)).status).toBe(200);
    },
    120_000,
  );

  windowTest(
    'right passwords never use up the limit',
    async () => {
      const name = await protectedImage();
      const viewer = freshAddress();
      for (let look = 0; look < limits.filePasswordPerFile + 2; look++)
        expect((await form(name, SECRET, viewer)).status).toBe(200);
      // Guesses from elsewhere still get the whole limit of 404s.
      await throttleName(name, freshAddress());
    },
    120_000,
  );
});

describe('protected and unknown names cost the same', () => {
  windowTest(
    'a refused guess: the same 429, the same writes, no read and no bcrypt, whether the name exists or not',
    async () => {
      const known = await protectedImage();
      const unknown = unknownName();
      const stranger = freshAddress();
      const refusals = [];
      for (const name of [known, unknown]) {
        await throttleName(name, stranger);
        for (let guess = 0; guess < limits.filePasswordPerAddressAtThrottledName; guess++)
          expect((await raw(name, 'more', stranger)).status).toBe(429);
        for (const request of [() => raw(name, 'again', stranger), () => form(name, 'again', stranger)]) {
          const refused = await costOf(request);
          expect([refused.reads, refused.compares]).toEqual([0, 0]);
          refusals.push(refused);
        }
      }
      const [knownRaw, knownForm, unknownRaw, unknownForm] = refusals;
      for (const [a, b] of [
        [knownRaw, unknownRaw],
        [knownForm, unknownForm],
      ]) {
        expect(a?.response.status).toBe(429);
        // The same headers; Retry-After counts down to the same window's end.
        const { 'retry-after': retryAfter, ...headers } = a?.response.headers ?? {};
        const { 'retry-after': otherRetryAfter, ...otherHeaders } = b?.response.headers ?? {};
        expect(headers).toEqual(otherHeaders);
        expect(Math.abs(Number(retryAfter) - Number(otherRetryAfter))).toBeLessThanOrEqual(2);
        // The same page but for the minutes it names, each counted from its own Retry-After: the two
        // refusals come seconds apart, so one may name a minute less.
        expect(withoutMinutes(a?.response.text, retryAfter)).toBe(
          withoutMinutes(b?.response.text, otherRetryAfter),
        );
        expect(a?.all).toEqual(b?.all);
      }
    },
    120_000,
  );

  windowTest('a wrong guess: the same 404 and one bcrypt compare each', async () => {
    const known = await protectedImage();
    const address = freshAddress();
    const [atKnown, atUnknown] = [
      await costOf(() => raw(known, 'wrong', address)),
      await costOf(() => raw(unknownName(), 'wrong', address)),
    ];
    expect([atKnown.response.status, atKnown.compares]).toEqual([404, 1]);
    expect([atUnknown.response.status, atUnknown.compares]).toEqual([404, 1]);
    expect(atKnown.response.text).toBe(atUnknown.response.text);
    expect(atKnown.all).toEqual(atUnknown.all);
    expect(atKnown.reads).toBe(2);
  });
});
