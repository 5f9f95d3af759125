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

export const documents = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = config().tableName;
