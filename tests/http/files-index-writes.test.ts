import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { recordSdkCalls, writeUnits } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What an upload and the writes after it cost, table and each index, as DynamoDB (Local) reports
 * it (`ReturnConsumedCapacity: INDEXES`): the figures docs/scale.md states. Every order's index has
 * an entry for every file, the orders whose field most files leave at its default included
 * (deletesAt, views, favorite: so each order is one keyed walk, docs/scale.md). An upload is one
 * transaction, and a transactional write costs twice a plain one (2 units per KB).
 */
const recorder = recordSdkCalls('INDEXES');

const png = { fileName: 'shot.png', type: 'image/png', content: PNG_1X1 };

test('an upload writes the file item, its name claim, the counters and the nine order indexes', async () => {
  const user = await signedInUser();
  recorder.reset();
  await upload(user.token, [png]);
  expect(writeUnits(recorder.calls)).toEqual({
    table: 6,
    gsi2: 2,
    gsi3: 2,
    gsi4: 2,
    gsi5: 2,
    gsi6: 2,
    gsi7: 2,
    gsi8: 2,
    gsi9: 2,
    gsi10: 2,
  });
});

test('an upload with an expiry also writes the expiry index', async () => {
  const user = await signedInUser();
  recorder.reset();
  await upload(user.token, [png], { 'x-zipline-deletes-at': '1d' });
  expect(writeUnits(recorder.calls)).toEqual({
    table: 6,
    gsi2: 2,
    gsi3: 2,
    gsi4: 2,
    gsi5: 2,
    gsi6: 2,
    gsi7: 2,
    gsi8: 2,
    gsi9: 2,
    gsi10: 2,
    gsi11: 2,
  });
});

test('a /raw view moves the file in the views index; a favourite moves it in the favourites index', async () => {
  const user = await signedInUser();
  const [file] = await upload(user.token, [png]);
  recorder.reset();
  expect((await call('GET', `/raw/${file?.name}`)).status).toBe(200);
  // The count, then the index keys, on the file's item (past 1 KB with every order's keys: 2 units
  // a write; the sparse indexes' item took 1 for the count; the owner's view totals are the table
  // stream's to write, not the request's); the entry at 0 views moves to 1 (a delete and a put: the
  // sparse indexes' first view put 1).
  expect(writeUnits(recorder.calls)).toEqual({ table: 4, gsi9: 2 });
  // A later view costs the same: 2 units a write, and the entry moves.
  recorder.reset();
  expect((await call('GET', `/raw/${file?.name}`)).status).toBe(200);
  expect(writeUnits(recorder.calls)).toEqual({ table: 4, gsi9: 2 });
  recorder.reset();
  const favorite = await call('PATCH', `/api/user/files/${file?.id}`, {
    token: user.token,
    json: { favorite: true },
  });
  expect(favorite.status).toBe(200);
  // Every order index projects the flag (the favourites filter skips without reading items), so a
  // toggle rewrites each entry; updatedAt moves gsi3's and the favourite gsi10's (a delete and a
  // put each); the counters move in the same transaction, which doubles every unit.
  expect(writeUnits(recorder.calls)).toEqual({
    table: 6,
    gsi2: 2,
    gsi3: 4,
    gsi4: 2,
    gsi5: 2,
    gsi6: 2,
    gsi7: 2,
    gsi8: 2,
    gsi9: 2,
    gsi10: 4,
  });
});

test('a rename moves the name claim and the by-name entry in one transaction with the owner check', async () => {
  const user = await signedInUser();
  const [file] = await upload(user.token, [png]);
  recorder.reset();
  const renamed = await call('PATCH', `/api/user/files/${file?.id}`, {
    token: user.token,
    json: { name: 'renamed-shot.png' },
  });
  expect(renamed.status).toBe(200);
  // The by-name entry (gsi5) and the updatedAt one (gsi3) move (a delete and a put each); the search
  // index (gsi2) projects the name, so its entry is rewritten; the table's share is the file item
  // (2 KB with every order's keys) and both claims.
  expect(writeUnits(recorder.calls)).toEqual({ table: 6, gsi2: 2, gsi3: 4, gsi5: 4 });
});
