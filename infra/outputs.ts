import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';

export interface OutputParts {
  dashboardUrl: string;
  apiUrl: string;
  table: ITable;
  files: IBucket;
  serviceKeys: ISecret;
  setupCode: ISecret;
  oauthClientSecrets: ISecret | undefined;
  alarmTopic: ITopic;
}

/** What `cdk deploy` prints: where the service answers and the names an operator needs (all in the parent). */
export function stackOutputs(stack: Stack, parts: OutputParts): void {
  new CfnOutput(stack, 'DashboardUrl', {
    value: parts.dashboardUrl,
    description: 'The dashboard, and the API under the same origin (/api/..., /raw/...)',
  });
  new CfnOutput(stack, 'ApiUrl', {
    value: parts.apiUrl,
    description: "The API's own URL, for token clients (ShareX, CLIs); browsers use DashboardUrl",
  });
  new CfnOutput(stack, 'TableName', { value: parts.table.tableName });
  new CfnOutput(stack, 'BucketName', { value: parts.files.bucketName });
  new CfnOutput(stack, 'ServiceKeysSecretArn', { value: parts.serviceKeys.secretArn });
  new CfnOutput(stack, 'SetupCodeCommand', {
    value: `aws secretsmanager get-secret-value --secret-id ${parts.setupCode.secretArn} --query SecretString --output text`,
    description: 'Prints the one-time code the first-run page asks for',
  });
  if (parts.oauthClientSecrets)
    new CfnOutput(stack, 'OAuthClientSecretsArn', {
      value: parts.oauthClientSecrets.secretArn,
      description: 'Put the providers\' client secrets here: {"github": "...", "oidc": "..."}',
    });
  new CfnOutput(stack, 'AlarmTopicArn', { value: parts.alarmTopic.topicArn });
}
