import { call } from '../support/client.ts';
import { windowTest } from '../support/throttle-window.ts';
import { signedInUser } from '../support/users.ts';

/** `/go/{code}` and `/view/url/{id}` (issue 34): redirects, views, the password form, its throttle. */

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const SECRET = 'open sesame';

async function link(json: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const owner = await signedInUser();
  const created = await call('POST', '/api/user/urls', {
    token: owner.token,
    json: { destination: 'https://example.com/target?x=1', ...json },
    headers,
  });
  expect(created.status).toBe(200);
  const views = async () =>
    (await call('GET', `/api/user/urls/${created.body.id}`, { token: owner.token })).body.views;
  return { owner, link: created.body, views };
}

const submit = (id: string, password: string, sourceIp?: string) =>
  call('POST', `/view/url/${id}`, {
    headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
    raw: new URLSearchParams({ password }).toString(),
    ...(sourceIp ? { sourceIp } : {}),
  });

const randomIp = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

test('the code and the vanity (any case) redirect with 302, never cached, each counting one view', async () => {
  const vanity = `Go-${Date.now().toString(36)}`;
  const { link: created, views } = await link({ vanity });
  for (const name of [created.code, vanity, vanity.toUpperCase()]) {
    const go = await call('GET', `/go/${name}`);
    expect(go.status).toBe(302);
    expect(go.headers.location).toBe('https://example.com/target?x=1');
    expect(go.headers['cache-control']).toBe('no-store');
    expect(go.headers['referrer-policy']).toBe('no-referrer');
  }
  expect(await views()).toBe(3);
});

test('unknown, disabled and out of views: the same 404, a page for browsers and JSON for clients', async () => {
  const { owner, link: disabled } = await link({ enabled: false });
  const { link: once } = await link({}, { 'x-zipline-max-views': '1' });
  expect((await call('GET', `/go/${once.code}`)).status).toBe(302);
  const answers = await Promise.all(
    [disabled.code, once.code, 'nosuchlink12', 'a/b'].map((name) =>
      call('GET', `/go/${encodeURIComponent(name)}`),
    ),
  );
  for (const answer of answers) expect([answer.status, answer.text]).toEqual([404, answers[0]?.text]);
  expect(answers[0]?.body).toEqual({ error: 'url not found', statusCode: 404 });
  const pages = await Promise.all(
    [disabled.code, once.code, 'nosuchlink12'].map((name) =>
      call('GET', `/go/${name}`, { headers: BROWSER }),
    ),
  );
  for (const page of pages) {
    expect([page.status, page.text]).toEqual([404, pages[0]?.text]);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).not.toMatch(/<script/i);
  }
  // Enabled again, the disabled link redirects.
  await call('PATCH', `/api/user/urls/${disabled.id}`, { token: owner.token, json: { enabled: true } });
  expect((await call('GET', `/go/${disabled.code}`)).status).toBe(302);
});

test('maxViews: 1 redirects exactly once under 50 concurrent requests; maxViews: 7 exactly seven times', async () => {
  for (const maxViews of [1, 7]) {
    const { link: limited, views } = await link({}, { 'x-zipline-max-views': String(maxViews) });
    const answers = await Promise.all(Array.from({ length: 50 }, () => call('GET', `/go/${limited.code}`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 302)).toHaveLength(maxViews);
    expect(statuses.filter((status) => status === 404)).toHaveLength(50 - maxViews);
    expect(await views()).toBe(maxViews);
  }
});

test('a limit set on a visited link starts from its views; raising it lets exactly the difference through', async () => {
  const { owner, link: visited, views } = await link();
  await Promise.all(Array.from({ length: 4 }, () => call('GET', `/go/${visited.code}`)));
  const limit = (maxViews: number | null) =>
    call('PATCH', `/api/user/urls/${visited.id}`, { token: owner.token, json: { maxViews } });
  expect((await limit(6)).body).toMatchObject({ views: 4, maxViews: 6 });
  const burst = async () =>
    (await Promise.all(Array.from({ length: 10 }, () => call('GET', `/go/${visited.code}`)))).filter(
      (answer) => answer.status === 302,
    ).length;
  expect(await burst()).toBe(2);
  expect((await limit(9)).body.views).toBe(6);
  expect(await burst()).toBe(3);
  expect(await views()).toBe(9);
  expect((await limit(null)).body.maxViews).toBeNull();
  expect(await burst()).toBe(10);
  expect(await views()).toBe(19);
});

test('a protected link sends to its script-free form; the right password redirects and counts, a wrong one does not', async () => {
  const { link: locked, views } = await link({}, { 'x-zipline-password': SECRET });
  const go = await call('GET', `/go/${locked.code}`, { headers: BROWSER });
  expect([go.status, go.headers.location]).toEqual([302, `/view/url/${locked.id}`]);
  const form = await call('GET', `/view/url/${locked.id}`, { headers: BROWSER });
  expect(form.status).toBe(200);
  expect(form.text).toMatch(/<form method="post">/);
  expect(form.text).toMatch(/<input id="password" name="password" type="password"[^>]* required/);
  expect(form.text).not.toMatch(/<script/i);
  expect(form.text).not.toContain('example.com');
  expect(form.headers['content-security-policy']).toContain("form-action 'self'");
  expect(form.headers['content-security-policy']).not.toMatch(/script-src/);
  expect(form.headers['cache-control']).toBe('no-store');

  const wrong = await submit(locked.id, 'open sesam');
  expect(wrong.status).toBe(403);
  expect(wrong.text).toContain('That password did not open this link.');
  expect(await views()).toBe(0);
  const right = await submit(locked.id, SECRET);
  expect([right.status, right.headers.location]).toEqual([302, 'https://example.com/target?x=1']);
  expect(await views()).toBe(1);

  // Zipline's JSON check: by id, code or vanity; counts nothing.
  const check = (password: string) =>
    call('POST', `/api/user/urls/${locked.code}/password`, { json: { password } });
  expect((await check(SECRET)).body).toEqual({ success: true });
  // A wrong password is the unknown link's 404, as a file's password check (no oracle for names).
  expect((await check('nope')).body).toEqual({ error: 'url not found', statusCode: 404 });
  expect(await views()).toBe(1);
  // An unprotected link's page sends on to the redirect.
  const { link: open } = await link();
  const page = await call('GET', `/view/url/${open.id}`);
  expect([page.status, page.headers.location]).toEqual([302, `/go/${open.code}`]);
  expect((await call('GET', '/view/url/nosuchlink12', { headers: BROWSER })).status).toBe(404);
});

windowTest(
  'password guesses are throttled per link: the 11th wrong guess is a 429 with Retry-After',
  async () => {
    const { link: locked, views } = await link({}, { 'x-zipline-password': SECRET });
    // From ten addresses, so the per-address limit (30) is not what stops them.
    for (let guess = 0; guess < 10; guess++) {
      expect((await submit(locked.id, `guess ${guess}`, randomIp())).status).toBe(403);
    }
    const limited = await submit(locked.id, 'guess 10', randomIp());
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.text).toMatch(/Too many wrong passwords for this link\. Try again in \d+ minutes?\./);
    const api = await call('POST', `/api/user/urls/${locked.id}/password`, {
      json: { password: SECRET },
      sourceIp: randomIp(),
    });
    expect(api.status).toBe(429);
    expect(await views()).toBe(0);
  },
);
