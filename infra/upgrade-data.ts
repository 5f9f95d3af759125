import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { backfillDefaultOrderEntries, backfillExpiryIndex, backfillUserShardIndex } from './table-upgrade.ts';
import { backfillTypeCounts } from './type-counts-upgrade.ts';

/**
 * `npm run upgrade:data -- <table name>`: after deploying a version that adds an index, gives the
 * items written before it the index's keys (docs/operations.md, "Upgrade"). Uses the AWS credentials
 * and region of the environment, as `cdk deploy` does; safe to run again.
 */
const tableName = process.argv[2];
if (!tableName) {
  console.error('usage: npm run upgrade:data -- <table name> (the stack output TableName)');
  process.exit(2);
}
const client = new DynamoDBClient({});
const files = await backfillExpiryIndex(client, tableName);
console.log(`${tableName}: ${files} files with an expiry given their expiry-index keys`);
const users = await backfillUserShardIndex(client, tableName);
console.log(`${tableName}: ${users} users moved to the sharded user-listing index`);
const entries = await backfillDefaultOrderEntries(client, tableName);
console.log(
  `${tableName}: ${entries} files, tag memberships and folder members given their entries in the orders at their default`,
);
const recounted = await backfillTypeCounts(client, tableName);
console.log(
  `${tableName}: ${recounted} users' files counted by type (files recorded before the per-type counts)`,
);
client.destroy();
