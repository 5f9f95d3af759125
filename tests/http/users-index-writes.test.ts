import { USERS_INDEX } from '#shared/db/keys/users';
import { call, cookieValue } from '../support/client.ts';
import { recordSdkCalls, writeUnits } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What a user's own actions write to the table's indexes, as DynamoDB (Local) reports it: the
 * listing index projects no `sessions`, so signing in and out, however often and by however many
 * users, writes no index entry (docs/scale.md).
 */
const recorder = recordSdkCalls('INDEXES');

/** Index name → write units, summed over the recorded calls that wrote (the table left out). */
function indexWrites(): Record<string, number> {
  const { table: _table, ...indexes } = writeUnits(recorder.calls);
  return indexes;
}

test('a login and a logout write the user item and no index', async () => {
  const user = await signedInUser();
  recorder.reset();
  const login = await call('POST', '/api/auth/login', {
    json: { username: user.username, password: user.password },
  });
  expect(login.status).toBe(200);
  const logout = await call('POST', '/api/auth/logout', { cookie: cookieValue(login.cookies[0]) });
  expect(logout.status).toBe(200);
  expect(recorder.calls.map((c) => c.command)).toContain('UpdateItemCommand');
  expect(indexWrites()).toEqual({});
});

test('a change the listing shows writes one entry, in the listing index only', async () => {
  const user = await signedInUser();
  recorder.reset();
  const response = await call('PATCH', '/api/user', {
    cookie: user.cookie,
    json: { view: { align: 'left' } },
  });
  expect(response.status).toBe(200);
  expect(indexWrites()).toEqual({ [USERS_INDEX]: 1 });
});
