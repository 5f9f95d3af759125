import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '#shared/config/service';
import { retry } from '#shared/db/contention/retry';
import { createItemReader } from '#shared/db/item-reader';

const { dynamodbEndpoint } = config();

const clientConfig: DynamoDBClientConfig = dynamodbEndpoint
  ? {
      endpoint: dynamodbEndpoint,
      region: process.env.AWS_REGION ?? 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }
  : {};

/**
 * A DynamoDB client without two middlewares that only cost CPU on every call (about a tenth of the
 * SDK's time per request): the logger middleware copies each input and output through the
 * sensitive-data filter for a logger that does nothing (the SDK gets none), and the user-agent
 * middleware rebuilds its header from the same parts each time. Requests and answers are unchanged
 * apart from that header, which only feeds AWS's SDK usage statistics.
 */
function leanClient(settings: DynamoDBClientConfig): DynamoDBClient {
  const client = new DynamoDBClient(settings);
  client.middlewareStack.remove('loggerMiddleware');
  client.middlewareStack.remove('getUserAgentMiddleware');
  return client;
}

/** Module-scope client: created once per cold start and reused by every request. */
export const dynamodb = leanClient(clientConfig);

/**
 * Reads of one item by key on the request path (every authenticated request reads its user item):
 * the same credentials, region, endpoint and attempts as `dynamodb`, without its per-request
 * middleware (db/item-reader.ts). Tests wrap its attempts with `intercept`, as they add middleware
 * to `dynamodb`.
 */
export const itemReader = createItemReader(dynamodb);

/** Attempts of a single-item write that meets another request's transaction on the same item. */
const CONFLICT_ATTEMPTS = 4;

/**
 * A single-item write that collides with an in-flight transaction on the same item (a login while an
 * upload's transaction checks the user item) is refused with TransactionConflictException, which the
 * SDK does not retry. Nothing was applied, so trying again after a short jittered pause is safe.
 */
dynamodb.middlewareStack.add(
  (next) => (args) =>
    retry(
      {
        attempts: CONFLICT_ATTEMPTS,
        baseMs: 10,
        retryable: (error) => error instanceof Error && error.name === 'TransactionConflictException',
      },
      () => next(args),
    ),
  { step: 'initialize', name: 'retryTransactionConflicts' },
);

export const documents = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = config().tableName;

/**
 * A command's input on the service's table: entities' modules give the key, item or query and this
 * names the table, so no module outside shared/db sets `TableName`.
 */
export const inTable = <T extends object>(input: T): T & { TableName: string } => ({
  ...input,
  TableName: tableName,
});

/** A batch request's items on the service's table (BatchWriteItem's, BatchGetItem's `RequestItems`). */
export const onTable = <T>(requests: T): Record<string, T> => ({ [tableName]: requests });

/** A batch answer's part for the service's table (its `UnprocessedItems`, `Responses`). */
export const ofTable = <T>(byTable: Record<string, T> | undefined): T | undefined => byTable?.[tableName];

/** A read's projection of `attributes`, each named by a placeholder (any may be a reserved word). */
export function projectionOf(attributes: string[]) {
  const names = attributes.map((name, index) => [`#p${index}`, name] as const);
  return {
    ProjectionExpression: names.map(([placeholder]) => placeholder).join(', '),
    ExpressionAttributeNames: Object.fromEntries(names),
  };
}

/**
 * One item by its key, unmarshalled as the document client would; undefined when there is none.
 * `attributes` limits what is sent back (the key alone: `['pk']`).
 */
export async function getItem(
  key: Record<string, string>,
  options: { consistent?: boolean; attributes?: string[] } = {},
): Promise<Record<string, unknown> | undefined> {
  const result = await itemReader.read({
    TableName: tableName,
    Key: marshall(key),
    ConsistentRead: options.consistent === true,
    ...(options.attributes ? projectionOf(options.attributes) : {}),
  });
  return result.Item && unmarshall(result.Item);
}
