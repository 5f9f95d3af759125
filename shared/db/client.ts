import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';

const { dynamodbEndpoint } = config();

/** Module-scope client: created once per cold start and reused by every request. */
export const dynamodb = new DynamoDBClient(
  dynamodbEndpoint
    ? {
        endpoint: dynamodbEndpoint,
        region: process.env.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : {},
);

/** Attempts of a single-item write that meets another request's transaction on the same item. */
const CONFLICT_ATTEMPTS = 4;

/**
 * A single-item write that collides with an in-flight transaction on the same item (a login while an
 * upload's transaction checks the user item) is refused with TransactionConflictException, which the
 * SDK does not retry. Nothing was applied, so trying again after a short jittered pause is safe.
 */
dynamodb.middlewareStack.add(
  (next) => async (args) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(args);
      } catch (error) {
        if (
          !(error instanceof Error) ||
          error.name !== 'TransactionConflictException' ||
          attempt >= CONFLICT_ATTEMPTS
        ) {
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
      }
    }
  },
  { step: 'initialize', name: 'retryTransactionConflicts' },
);

export const documents = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = config().tableName;
