import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documents } from '#shared/db/client';
import { USER_SHARDS, USERS_INDEX, userIndexKey, userKey, userShardPartition } from '#shared/db/keys/users';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { backfillUserShardIndex } from '../../infra/table-upgrade.ts';
import { withTableMadeBefore } from '../support/legacy-table.ts';

/** The one-partition user listing of the version before the sharded index, which this version drops. */
const LEGACY_USERS_INDEX = { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' };

/** A user item as the version before the sharded listing index wrote it: gsi1 keys, no gsi12 keys. */
function legacyUser(id: string, role: 'SUPERADMIN' | 'ADMIN' | 'USER', rank: number) {
  return {
    ...userKey(id),
    gsi1pk: 'USERS',
    gsi1sk: `${rank}#${id}`,
    id,
    username: `name-${id}`,
    passwordHash: 'not a real hash',
    role,
    view: {},
    quota: null,
    sessions: { s1: 1 },
    tokenNonce: 'nonce',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

test('a table from before the sharded user index gets it, its users move there and leave gsi1, once, and gsi1 goes', async () => {
  await withTableMadeBefore(
    USERS_INDEX,
    async (client, legacyTable) => {
      const legacy = [
        legacyUser('00000000-0000-4000-8000-00000000a0a1', 'SUPERADMIN', 0),
        legacyUser('00000000-0000-4000-8000-00000000b1b2', 'ADMIN', 1),
        legacyUser('00000000-0000-4000-8000-00000000c3c4', 'USER', 2),
        legacyUser('00000000-0000-4000-8000-00000000d5d6', 'USER', 2),
      ];
      // Promoted by this version before the upgrade ran: its role change wrote its keys already.
      const promotedId = '00000000-0000-4000-8000-00000000e7e8';
      const promoted = { ...legacyUser(promotedId, 'ADMIN', 1), ...userIndexKey(1, promotedId) };
      delete (promoted as Partial<typeof promoted>).gsi1pk;
      delete (promoted as Partial<typeof promoted>).gsi1sk;
      const others = [
        { pk: 'USERNAME#name-x', sk: 'USERNAME', userId: legacy[0]?.id },
        { pk: `USER#${legacy[0]?.id}`, sk: 'FILESTATS', files: 0 },
      ];
      for (const item of [...legacy, promoted, ...others]) {
        await documents.send(new PutCommand({ TableName: legacyTable, Item: item }));
      }

      expect(await ensureTable(client, legacyTable)).toBe(false);
      const described = await client.send(new DescribeTableCommand({ TableName: legacyTable }));
      const indexNames = described.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName);
      expect(indexNames).toContain(USERS_INDEX);
      // The legacy index, which projected every attribute (password hashes too), is gone.
      expect(indexNames).not.toContain(LEGACY_USERS_INDEX.name);
      const read = async (key: { pk: unknown; sk: unknown }) =>
        (await documents.send(new GetCommand({ TableName: legacyTable, Key: { pk: key.pk, sk: key.sk } })))
          .Item;
      const ranks = { SUPERADMIN: 0, ADMIN: 1, USER: 2 };
      for (const user of legacy) {
        const { gsi1pk: _pk, gsi1sk: _sk, ...rest } = user;
        expect(await read(user)).toEqual({ ...rest, ...userIndexKey(ranks[user.role], user.id) });
      }
      expect(await read(promoted)).toEqual(promoted);
      for (const item of others) expect(await read(item)).toEqual(item);

      // Every user is in the new index, in its shard, and nothing secret came along.
      const listed = (
        await Promise.all(
          Array.from({ length: USER_SHARDS }, async (_, shard) => {
            const result = await documents.send(
              new QueryCommand({
                TableName: legacyTable,
                IndexName: USERS_INDEX,
                KeyConditionExpression: 'gsi12pk = :pk',
                ExpressionAttributeValues: { ':pk': userShardPartition(shard) },
              }),
            );
            return result.Items ?? [];
          }),
        )
      ).flat();
      expect(listed.map((item) => item.id).sort()).toEqual(
        [...legacy.map((user) => user.id), promotedId].sort(),
      );
      for (const item of listed) {
        for (const secret of ['passwordHash', 'tokenNonce', 'sessions'])
          expect(item).not.toHaveProperty(secret);
      }
      // Again (the runner's next start, or `npm run upgrade:data` run twice): nothing left to do.
      expect(await backfillUserShardIndex(client, legacyTable)).toBe(0);
    },
    [LEGACY_USERS_INDEX],
  );
});
