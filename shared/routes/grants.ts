/**
 * The vocabulary of what a function may touch: the route table (routes/table.ts), the background
 * functions (routes/background.ts) and the CDK stack's grants speak it.
 */
import type { Partition } from '#shared/db/keys/partitions';

/** DynamoDB item actions (a transaction is authorized by the actions of its items). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/**
 * A function's DynamoDB access: per action, the kinds of partition it touches (their keys' patterns
 * are `PARTITION_PATTERNS` in db/keys/partitions.ts); and the indexes it queries. The stack grants exactly this.
 */
export interface TableAccess {
  items?: Partial<Record<TableAction, readonly Partition[]>>;
  indexes?: readonly string[];
}

/**
 * S3 actions on the files bucket (HeadObject and presigned GETs are GetObject, DeleteObjects is
 * DeleteObject; a PUT that tags its object also needs PutObjectTagging).
 */
export type BucketAction =
  | 'GetObject'
  | 'PutObject'
  | 'PutObjectTagging'
  | 'DeleteObject'
  | 'ListBucket'
  | 'AbortMultipartUpload';

/**
 * Key prefixes of the bucket (layout in files/layout.ts; `uploads/` holds staged chunks and what
 * earlier versions left; `thumbnails/` the WebP previews of images; `exports/` users' export zips,
 * `export-requests/` the objects that start the export function: exports/model.ts).
 */
export type ObjectPrefix = 'files/' | 'uploads/' | 'thumbnails/' | 'exports/' | 'export-requests/';

/**
 * A function's access to the files bucket: per action, the key prefixes (for ListBucket: the listed
 * prefixes). A presigned URL carries the function's own permission, so it needs the grant it hands out.
 */
export type BucketAccess = Partial<Record<BucketAction, readonly ObjectPrefix[]>>;

/** `announces`: knows whether setup needs a code (`GET /api/setup`); `checks`: reads it (`POST`). */
export type SetupCodeAccess = 'announces' | 'checks';

/**
 * A function's knowledge of the OAuth providers: `providers` their configuration (client ids, issuer,
 * sign-up); `secrets` also their client secrets (the Secrets Manager secret), which only the callback
 * needs, for the token request.
 */
export type SignInProviderAccess = 'providers' | 'secrets';
