/**
 * The table's partition kinds and the generic index attributes: what every entity's key builders
 * (the other modules of this folder, the only place that knows how entities map onto the generic
 * pk/sk/gsi attributes) share.
 */

/**
 * The kinds of partition the table holds, as IAM patterns of their partition keys (IAM's
 * `dynamodb:LeadingKeys`): the stack limits each function's item actions to the kinds it uses.
 */
export const PARTITION_PATTERNS = {
  USER: 'USER#*',
  USERNAME: 'USERNAME#*',
  USERLIKE: 'USERLIKE#*',
  SETUP: 'SETUP',
  SETTINGS: 'SETTINGS',
  INVITES: 'INVITES',
  FILENAME: 'FILENAME#*',
  THROTTLE: 'THROTTLE#*',
  OAUTHID: 'OAUTHID#*',
  OAUTHFLOW: 'OAUTHFLOW#*',
  PASSKEY: 'PASSKEY#*',
  WEBAUTHN: 'WEBAUTHN#*',
  DELETION: 'DELETIONS',
  GO: 'GO#*',
  LINKVIEWS: 'LINKVIEWS#*',
  // A popular file's view counters and the owners' view totals (their keys: db/keys/views.ts).
  FILEVIEWS: 'FILEVIEWS#*',
  VIEWTOTALS: 'VIEWTOTALS#*',
  METRICS: 'METRICS',
  FOLDER: 'FOLDER#*',
  // Zipline import (issue 40): `ZIPLINE#<kind>` mapping items, import/keys.ts.
  ZIPLINE: 'ZIPLINE#*',
} as const;

export type Partition = keyof typeof PARTITION_PATTERNS;

/**
 * Spreads ids over `shards` partitions by a hash of their last four characters (the random tail of
 * a ULID or UUID), so an index key shared across users never takes every user's writes.
 */
export function shardOf(id: string, shards: number): number {
  let hash = 0;
  for (const char of id.slice(-4)) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return hash % shards;
}

/** An index's partition-key and sort-key attributes (every index of the table names them so). */
export const indexPartitionAttribute = (index: string) => `${index}pk`;

export const indexSortAttribute = (index: string) => `${index}sk`;

export const indexKeyAttributes = (index: string) => ({
  pk: indexPartitionAttribute(index),
  sk: indexSortAttribute(index),
});
