import { jest } from '@jest/globals';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The public folder page's previews and pages (issue 35): files shown as the view page shows them,
 * server-rendered under a CSP that names only the previews' origin, older files by a signed cursor,
 * a protected or limited file without a preview, and no view counted.
 */

jest.setTimeout(180_000);

const browser = { headers: { accept: 'text/html' } };
type Owner = Awaited<ReturnType<typeof signedInUser>>;

async function publicFolder(owner: Owner, name: string) {
  const folder = (await call('POST', '/api/user/folders', { token: owner.token, json: { name } })).body;
  await call('PATCH', `/api/user/folders/${folder.id}`, { token: owner.token, json: { isPublic: true } });
  return folder.id as string;
}

/** The `src` (or `poster`) of the element of the card whose link names `name`. */
function cardOf(html: string, name: string): string {
  const cards = html.split('<li class="card">').slice(1);
  const card = cards.find((text) => text.includes(`href="/u/${name}"`));
  if (!card) throw new Error(`no card for ${name}`);
  return card;
}
const attribute = (html: string, name: string) =>
  (html.match(new RegExp(`${name}="([^"]*)"`))?.[1] ?? '').replaceAll('&amp;', '&');

test('/folder/{id} shows each file as its view page does: images, video and audio with controls, text as its first lines', async () => {
  const owner = await signedInUser();
  const folderId = await publicFolder(owner, 'Mixed');
  const inFolder = { 'x-zipline-folder': folderId };
  const [image, video, audio, text, code, zip] = await upload(
    owner.token,
    [
      { fileName: 'shot.png', type: 'image/png', content: 'png bytes' },
      { fileName: 'clip.mp4', type: 'video/mp4', content: 'mp4 bytes' },
      { fileName: 'song.mp3', type: 'audio/mpeg', content: 'mp3 bytes' },
      { fileName: 'notes.txt', type: 'text/plain', content: 'first <line>\nsecond line\n' },
      { fileName: 'script.py', type: 'application/octet-stream', content: 'print("hi")\n' },
      { fileName: 'bundle.zip', type: 'application/zip', content: 'zip bytes' },
    ],
    inFolder,
  );
  const [locked] = await upload(
    owner.token,
    [{ fileName: 'secret.png', type: 'image/png', content: 'hidden' }],
    {
      ...inFolder,
      'x-zipline-password': 'pw',
    },
  );
  const [limited] = await upload(
    owner.token,
    [{ fileName: 'once.png', type: 'image/png', content: 'once' }],
    {
      ...inFolder,
      'x-zipline-max-views': '1',
    },
  );
  const page = await call('GET', `/folder/${folderId}`, browser);
  expect(page.status).toBe(200);
  const html = page.text;
  expect(html).not.toContain('<script');

  const imageSrc = attribute(cardOf(html, image?.name as string), 'src');
  const shown = await fetch(imageSrc);
  expect([shown.status, await shown.text()]).toEqual([200, 'png bytes']);
  const videoCard = cardOf(html, video?.name as string);
  expect(videoCard).toMatch(/<video src="[^"]+" controls preload="none"><\/video>/);
  expect(await (await fetch(attribute(videoCard, 'src'))).text()).toBe('mp4 bytes');
  expect(cardOf(html, audio?.name as string)).toMatch(/<audio src="[^"]+" controls preload="none"><\/audio>/);
  expect(cardOf(html, text?.name as string)).toContain(
    '<pre class="snippet">first &lt;line&gt;\nsecond line\n</pre>',
  );
  expect(cardOf(html, code?.name as string)).toContain('<pre class="snippet">print(&quot;hi&quot;)');
  expect(cardOf(html, zip?.name as string)).toContain('<span class="kind">application/zip</span>');
  // No preview of a protected or limited file: a presigned URL would bypass its password or limit.
  expect(cardOf(html, locked?.name as string)).toContain('Password protected');
  expect(cardOf(html, limited?.name as string)).toContain('Limited views');
  for (const file of [locked, limited]) {
    expect(cardOf(html, file?.name as string)).not.toMatch(/<(img|video|audio)/);
  }

  // The CSP allows the previews' origin for images and media, and nothing else is loaded.
  const origin = new URL(imageSrc).origin;
  const csp = page.headers['content-security-policy'] as string;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain(`img-src ${origin}`);
  expect(csp).toContain(`media-src ${origin}`);
  expect(csp).not.toContain('script-src');
  // Showing the page counts no view.
  const listed = (await call('GET', `/api/user/files?folder=${folderId}`, { token: owner.token })).body.page;
  expect(listed.map((file: { views: number }) => file.views)).toEqual(listed.map(() => 0));
});

test('/folder/{id} pages a big folder newest first by a signed cursor, every file once', async () => {
  const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
  const folderId = await publicFolder(owner, 'Big');
  const otherFolder = await publicFolder(other, 'Theirs');
  const names: string[] = [];
  for (let batch = 0; batch < 2; batch++) {
    const sent = await upload(
      owner.token,
      Array.from({ length: 15 }, (_, index) => ({
        fileName: `f-${batch}-${index}.txt`,
        type: 'text/plain',
        content: `${batch}-${index}`,
      })),
      { 'x-zipline-folder': folderId },
    );
    names.push(...sent.map((file) => file.name));
  }
  await upload(other.token, [{ fileName: 'x.txt', type: 'text/plain', content: 'x' }], {
    'x-zipline-folder': otherFolder,
  });
  const linked = (html: string) => [...html.matchAll(/<a href="\/u\/([^"]+)">/g)].map((match) => match[1]);
  const first = await call('GET', `/folder/${folderId}`, browser);
  expect(first.text).toContain('30 files');
  expect(linked(first.text)).toHaveLength(24);
  expect(first.text).not.toContain('Newest files');
  const older = first.text.match(/<a href="(\/folder\/[^"?]+\?after=[^"]+)">Older files<\/a>/)?.[1];
  expect(older).toBeDefined();
  const second = await call('GET', (older as string).replaceAll('&amp;', '&'), browser);
  expect(second.status).toBe(200);
  expect(linked(second.text)).toHaveLength(6);
  expect(second.text).toContain(`<a href="/folder/${folderId}">Newest files</a>`);
  expect(second.text).not.toContain('Older files');
  expect([...linked(first.text), ...linked(second.text)].sort()).toEqual([...names].sort());

  // A cursor is bound to its folder and signed: another folder's, or an edited one, is a 400.
  const after = new URL(older as string, 'https://x').searchParams.get('after') as string;
  expect(
    (await call('GET', `/folder/${otherFolder}?after=${encodeURIComponent(after)}`, browser)).status,
  ).toBe(400);
  expect((await call('GET', `/folder/${folderId}?after=${after.slice(1)}`, browser)).status).toBe(400);
  expect((await call('GET', `/folder/${folderId}?after=${'x'.repeat(3000)}`, browser)).status).toBe(400);
});
