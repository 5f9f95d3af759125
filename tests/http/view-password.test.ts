import { call } from '../support/client.ts';
import { download, expireFile, upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { windowTest } from '../support/throttle-window.ts';
import { freshAddress } from '../support/totp.ts';
import { signedInUser } from '../support/users.ts';

/** What a browser sends when it navigates to a link. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const SECRET = 'open sesame';

/** The form as a browser submits it (from the test client's address unless given). */
const submit = (name: string, password: string, sourceIp?: string) =>
  call('POST', `/view/${name}`, {
    headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
    raw: new URLSearchParams({ password }).toString(),
    ...(sourceIp ? { sourceIp } : {}),
  });

async function protectedImage(headers: Record<string, string> = {}) {
  const owner = await signedInUser();
  const on = await call('PATCH', '/api/user', { token: owner.token, json: { view: { enabled: true } } });
  expect(on.status).toBe(200);
  const [file] = await upload(
    owner.token,
    [{ fileName: 'secret.png', type: 'image/png', content: PNG_1X1 }],
    {
      'x-zipline-password': SECRET,
      ...headers,
    },
  );
  const { id, name } = file as { id: string; name: string };
  const views = async () => (await call('GET', `/api/user/files/${id}`, { token: owner.token })).body.views;
  return { owner, id, name, views };
}

const unknownName = () => `no-such-${Math.random().toString(36).slice(2)}.png`;

test('a browser opening a protected link gets the password form: the very page an unknown name gets, 404, no view counted', async () => {
  const { name, views } = await protectedImage();
  const page = await call('GET', `/view/${name}`, { headers: BROWSER });
  const unknown = await call('GET', `/view/${unknownName()}`, { headers: BROWSER });
  expect([page.status, unknown.status]).toEqual([404, 404]);
  expect(page.text).toBe(unknown.text);
  expect(page.headers).toEqual({ ...unknown.headers });
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  // A form that works without script: POST to the page's own URL, one password field.
  expect(page.text).toMatch(/<form method="post">/);
  expect(page.text).toMatch(/<input id="password" name="password" type="password"[^>]* required/);
  expect(page.text).not.toMatch(/<script/i);
  expect(page.headers['content-security-policy']).toContain("form-action 'self'");
  expect(page.headers['content-security-policy']).not.toMatch(/script-src/);
  expect((await call('HEAD', `/view/${name}`, { headers: BROWSER })).status).toBe(404);
  // Clients that do not ask for HTML keep /raw's JSON refusal.
  const api = await call('GET', `/view/${name}`);
  expect(api.status).toBe(404);
  expect(api.text).toBe((await call('GET', `/raw/${unknownName()}`)).text);
  expect(await views()).toBe(0);
});

test('the right password shows the page and counts one view; a wrong one is the refusal of an unknown name', async () => {
  const { name, views } = await protectedImage();
  const wrong = await submit(name, 'open sesam');
  const unknown = await submit(unknownName(), SECRET);
  expect([wrong.status, unknown.status]).toEqual([404, 404]);
  expect(wrong.text).toBe(unknown.text);
  expect(wrong.text).toContain('That password did not open a file at this link.');
  expect(wrong.text).toMatch(/<form method="post">/);
  expect(await views()).toBe(0);

  const opened = await submit(name, SECRET);
  expect(opened.status).toBe(200);
  expect(opened.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(opened.text).not.toContain(SECRET);
  const image = /<img src="([^"]+)"/.exec(opened.text)?.[1]?.replaceAll('&amp;', '&') as string;
  const fetched = await fetch(image);
  expect(Buffer.from(await fetched.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  expect(await views()).toBe(1);
  // The password unlocks this page, not the others: /raw still needs ?pw=.
  expect((await call('GET', `/raw/${name}`)).status).toBe(404);
});

test('a protected file with maxViews: 1 opens exactly once, whatever the page loads', async () => {
  const { name, views } = await protectedImage({ 'x-zipline-max-views': '1' });
  const first = await submit(name, SECRET);
  expect(first.status).toBe(200);
  for (const link of [...first.text.matchAll(/(?:src|href)="(http[^"]+)"/g)]) {
    expect((await fetch((link[1] as string).replaceAll('&amp;', '&'))).status).toBe(200);
  }
  const again = await submit(name, SECRET);
  expect(again.status).toBe(404);
  expect(again.text).toBe((await submit(unknownName(), SECRET)).text);
  expect((await download(`/raw/${name}?pw=${encodeURIComponent(SECRET)}`)).status).toBe(404);
  expect(await views()).toBe(1);
});

// Counted within one throttle window: a run that straddles a boundary (a loaded machine) runs again
// in the next window, with a fresh file, name and addresses.
windowTest(
  'guesses are throttled per name together with /raw?pw=; the right password keeps working for viewers',
  async () => {
    const { name } = await protectedImage();
    // Each party its own address: the per-address limit is tests/hardening/file-password-guesses.test.ts's.
    const [viewer, stranger, another] = [freshAddress(), freshAddress(), freshAddress()];
    // Right passwords any number of times: never limited.
    for (let look = 0; look < 12; look++) expect((await submit(name, SECRET, viewer)).status).toBe(200);
    for (let guess = 0; guess < 5; guess++)
      expect((await submit(name, `guess ${guess}`, stranger)).status).toBe(404);
    for (let guess = 5; guess < 10; guess++)
      expect((await call('GET', `/raw/${name}?pw=guess%20${guess}`, { sourceIp: stranger })).status).toBe(
        404,
      );
    const limited = await submit(name, 'guess 10', stranger);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limited.text).toMatch(/Too many wrong passwords for this link\. Try again in \d+ minutes?\./);
    // The stranger's guesses did not close the file: its viewers' right password opens it on both routes.
    expect((await submit(name, SECRET, viewer)).status).toBe(200);
    expect(
      (await call('GET', `/raw/${name}?pw=${encodeURIComponent(SECRET)}`, { sourceIp: viewer })).status,
    ).toBe(200);
    // Unknown names are limited alike (no oracle); other names are not affected.
    const missing = unknownName();
    for (let guess = 0; guess < 10; guess++)
      expect((await submit(missing, `guess ${guess}`, another)).status).toBe(404);
    expect((await submit(missing, 'guess 10', another)).status).toBe(429);
  },
);

test('a view-pages-off owner, an expired file and an open file: the form refuses or shows as GET would', async () => {
  const owner = await signedInUser();
  const [hidden] = await upload(owner.token, [{ fileName: 'a.png', type: 'image/png', content: PNG_1X1 }], {
    'x-zipline-password': SECRET,
  });
  const refused = await submit(hidden?.name as string, SECRET);
  expect(refused.status).toBe(404);
  expect(refused.text).toBe((await submit(unknownName(), SECRET)).text);

  await call('PATCH', '/api/user', { token: owner.token, json: { view: { enabled: true } } });
  expect((await submit(hidden?.name as string, SECRET)).status).toBe(200);
  await expireFile(owner.id, hidden?.id as string);
  expect((await submit(hidden?.name as string, SECRET)).status).toBe(404);

  // A file without a password opens with any password (as /raw?pw= does), and is never throttled.
  const [open] = await upload(owner.token, [{ fileName: 'b.png', type: 'image/png', content: PNG_1X1 }]);
  for (let look = 0; look < 12; look++) expect((await submit(open?.name as string, 'x')).status).toBe(200);
});

test('bad forms are 4xx and count nothing', async () => {
  const { name, views } = await protectedImage();
  const json = await call('POST', `/view/${name}`, { json: { password: SECRET } });
  expect([json.status, json.body.error]).toEqual([
    415,
    'content-type must be application/x-www-form-urlencoded',
  ]);
  const empty = await call('POST', `/view/${name}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'user=x',
  });
  expect([empty.status, empty.body.error]).toEqual([400, 'password is required']);
  const long = await submit(name, 'x'.repeat(1025));
  expect(long.status).toBe(400);
  expect(await views()).toBe(0);
});
