import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { userKey } from '#shared/db/keys/users';
import type { Quota } from '#shared/quota';

/** Fixture: sets a user's quota straight in the table, without an admin to call PATCH /api/users/{id}. */
export async function updateUserQuota(userId: string, quota: Quota): Promise<void> {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: userKey(userId),
      UpdateExpression: 'SET quota = :quota',
      ExpressionAttributeValues: { ':quota': quota },
    }),
  );
}
